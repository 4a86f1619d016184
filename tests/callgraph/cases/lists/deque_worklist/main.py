from collections import deque


class Node:
    def __init__(self, *children):
        self.children = list(children)

    def iter_children(self):
        return iter(self.children)

    def visit(self):
        return 1


def walk(root):
    todo = deque([root])
    total = 0
    while todo:
        node = todo.popleft()
        total += node.visit()
        todo.extend(node.iter_children())
    return total


def walk_back(root):
    todo = deque()
    todo.appendleft(root)
    return todo.pop().visit()


tree = Node(Node(), Node(Node()))
walk(tree)
walk_back(tree)
