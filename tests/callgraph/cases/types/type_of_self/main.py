class Node:
    def __init__(self):
        self.children = []

    def __eq__(self, other):
        return isinstance(other, Node) and self.children == other.children

    __hash__ = object.__hash__

    def clone(self):
        return type(self)()

    def again(self):
        return self.__class__()

    @staticmethod
    def label():
        return "node"

    def describe(self):
        return type(self).label()

    def same_kind(self, other):
        return type(self) == type(other)  # noqa: E721

    def name(self):
        return "node"


class Leaf(Node):
    def __init__(self):
        super().__init__()
        self.value = 1

    def name(self):
        return "leaf"


def exact():
    node = Node()
    return type(node)().name()


for item in (Node(), Leaf()):
    print(item.clone().name(), item.again().children, item.describe(), item.same_kind(item))
print(exact())
