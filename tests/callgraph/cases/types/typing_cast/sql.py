class Cast:
    def __init__(self, expr, type_):
        self.expr, self.type_ = expr, type_

    def compile(self):
        return f"CAST({self.expr} AS {self.type_.__name__})"


def cast(expr, type_):
    return Cast(expr, type_)
