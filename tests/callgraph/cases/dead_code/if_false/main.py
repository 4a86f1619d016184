def debug_dump(state):
    print(state)


def normalise(state):
    return {k.lower(): v for k, v in state.items()}


def process(state):
    if False:
        debug_dump(state)
    else:
        state = normalise(state)
    return state


print(process({"A": 1}))
