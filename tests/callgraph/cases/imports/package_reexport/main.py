import engine
from engine import Engine

car = Engine("v8")
print(car.start(), engine.load(["turbo"]))
