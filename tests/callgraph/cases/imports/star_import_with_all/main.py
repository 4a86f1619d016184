def helper(text):
    return f"local {text}"


from tools.strings import *

print(shout("hi"), helper("x"))
