class Node:
    def __init__(self, name):
        self.name = name
        self.children: list[Node] = []

    def add(self, child: "Node") -> "Node":
        self.children.append(child)
        return child

    def walk(self):
        yield self
        for child in self.children:
            yield from child.walk()


root = Node("root")
root.add(Node("a")).add(Node("b"))
print([node.name for node in root.walk()])
