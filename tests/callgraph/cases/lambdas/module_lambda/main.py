def multiply(a, b):
    return a * b


double = lambda x: multiply(x, 2)

print(double(21))
