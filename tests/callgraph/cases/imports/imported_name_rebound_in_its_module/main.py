import engines
from engines import engine

print(engine([3, 1, 2]))
print(engines.engine([2, 1]))
