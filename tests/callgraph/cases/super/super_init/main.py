class Vehicle:
    def __init__(self, wheels):
        self.wheels = wheels


class Bike(Vehicle):
    def __init__(self, brand):
        super().__init__(wheels=2)
        self.brand = brand


print(Bike("trek").wheels)
