import asyncio
import contextlib
from contextlib import asynccontextmanager, contextmanager


class Conn:
    def run(self, sql):
        return f"ran {sql}"


class Pool:
    def __init__(self):
        self.conn = Conn()

    @contextlib.contextmanager
    def acquire(self):
        yield self.conn


@contextmanager
def connect():
    yield Conn()


@asynccontextmanager
async def open_async():
    yield Conn()


@contextmanager
def quiet():
    yield


def work():
    with connect() as conn:
        conn.run("a")
    with Pool().acquire() as pooled, quiet() as nothing:
        pooled.run("b")
    return nothing


async def work_async():
    async with open_async() as conn:
        return conn.run("c")


print(work(), asyncio.run(work_async()))
