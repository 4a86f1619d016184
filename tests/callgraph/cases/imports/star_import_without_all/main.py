def _reset():
    return "local reset"


from colors import *

print(red("alert"), _reset())
