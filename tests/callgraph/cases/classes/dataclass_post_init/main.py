from dataclasses import dataclass, field


@dataclass
class Config:
    name: str
    tags: list = field(default_factory=list)

    def __post_init__(self):
        self.name = normalise(self.name)


@dataclass
class Extended(Config):
    level: int = 0


class Manual(Config):
    def __init__(self, name):
        self.name = name


def normalise(text):
    return text.strip()


print(Config(" a ").name, Extended(" b ").name, Manual(" c ").name)
