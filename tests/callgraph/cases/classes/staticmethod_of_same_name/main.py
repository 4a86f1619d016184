def invoke(args):
    return f"ran {args}"


def render(harness, value):
    return f"<{value}>"


class Harness:
    invoke = staticmethod(invoke)
    render = render

    def run(self):
        return self.invoke(["--check"]), self.render(1)


print(Harness().run())
