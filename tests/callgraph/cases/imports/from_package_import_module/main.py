from pkg import formats
from pkg import formats as fmt

print(formats.to_json({"a": 1}), fmt.to_lines({"b": 2}))
