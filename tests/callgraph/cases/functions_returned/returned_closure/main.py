def make_adder(n):
    def add(x):
        return x + n

    return add


add_five = make_adder(5)
print(add_five(10), make_adder(1)(2))
