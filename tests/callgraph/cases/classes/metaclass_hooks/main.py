from typing import ClassVar

from registry import Plugin


class Meta(type):
    registry: ClassVar[list[type]] = []

    def __new__(mcs, name, bases, ns):
        cls = super().__new__(mcs, name, bases, ns)
        mcs.registry.append(cls)
        return cls

    def __init__(cls, name, bases, ns):
        super().__init__(name, bases, ns)
        cls.tag = name.lower()

    def describe(cls):
        return cls.__name__

    def __iter__(cls):
        return iter(Meta.registry)

    def __len__(cls):
        return len(Meta.registry)


class Base(metaclass=Meta):
    def __init__(self, x=None):
        self.x = x


class Child(Base):
    pass


class Plain:
    def describe(self):
        return "plain"


def make():
    return Child(1)


def names():
    return [c.describe() for c in Base] + [Child.describe(), Plain().describe(), len(Child)]


make()
names()
Plugin.load()
