class Node:
    def __init__(self, value):
        self.value = value
        self.next: "Node | None" = None

    def link(self, other: "Node") -> "Node":
        self.next = other
        return other

    def describe(self):
        return f"node {self.value}"

    def describe_next(self):
        if self.next is None:
            return "end"
        return self.next.describe()


first = Node(1)
print(first.link(Node(2)).describe(), first.describe_next())
