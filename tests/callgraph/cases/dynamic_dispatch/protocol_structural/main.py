from typing import Protocol


class Closeable(Protocol):
    def close(self) -> None: ...


class File:
    def close(self) -> None:
        print("file closed")


class Socket:
    def close(self) -> None:
        print("socket closed")


class Reader:
    def read(self) -> str:
        return ""


def close_all(things: "list[Closeable]") -> None:
    # nothing here says which classes the list holds: any that fits the protocol
    for thing in things:
        thing.close()


close_all([])
