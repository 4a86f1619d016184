class Walker:
    def walk(self):
        return "walks"


class Swimmer:
    def swim(self):
        return "swims"


class Duck(Walker, Swimmer):
    def move(self):
        return self.walk() + " and " + self.swim()


print(Duck().move())
