class A:
    def describe(self):
        return "A"

    def kind(self):
        return "a-kind"


class B(A):
    def describe(self):
        return "B"


class C(B):
    pass


class D(C):
    def kind(self):
        return "d-kind"


d = D()
print(d.describe(), d.kind())
