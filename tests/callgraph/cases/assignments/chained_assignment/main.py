def persist(record):
    return f"saved {record}"


save = store = persist


def commit(record):
    save(record)
    return store(record)


print(commit("r1"))
