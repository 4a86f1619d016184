class Animal:
    def __init__(self, name):
        self._name = name

    @property
    def name(self):
        return self._name.title()


class Dog(Animal):
    def speak(self):
        return f"{self.name} says woof"


print(Dog("rex").speak(), Dog("fido").name)
