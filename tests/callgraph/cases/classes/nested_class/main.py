class Outer:
    class Config:
        def __init__(self, debug):
            self.debug = debug

        def describe(self):
            return f"debug={self.debug}"

    def __init__(self):
        self.config = Outer.Config(debug=True)

    def show(self):
        return self.config.describe()


print(Outer().show(), Outer.Config(False).describe())
