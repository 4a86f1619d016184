class NotFound(LookupError):
    def __init__(self, *args):
        super().__init__("not found", *args)


class Plain(Exception):
    pass
