import b
from a import run

print(run(), b.start())
