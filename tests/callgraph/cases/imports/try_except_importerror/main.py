from compat import dumps

print(dumps({"a": 1}))
