class Shape:
    def area(self):
        return 0
