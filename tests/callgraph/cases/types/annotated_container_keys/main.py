from typing import Mapping, Sequence


class Wheel:
    def spin(self):
        return 1


class Tyre:
    def grip(self):
        return 2


def first(wheels: list[Wheel]) -> int:
    return wheels[0].spin()


def last(wheels: Sequence[Wheel]) -> int:
    return wheels[-1].spin()


def front(axle: tuple[Wheel, Tyre]) -> int:
    return axle[1].grip()


def named(by_name: dict[str, Wheel], spares: Mapping[str, Tyre]) -> int:
    return by_name["left"].spin() + spares.get("right").grip()


print(first([Wheel()]), last([Wheel()]), front((Wheel(), Tyre())), named({"left": Wheel()}, {"right": Tyre()}))
