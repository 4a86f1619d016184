class Thermostat:
    def __init__(self, target):
        self.target = target

    @property
    def target(self):
        return self._target

    @target.setter
    def target(self, value):
        self._target = self.clamp(value)

    def clamp(self, value):
        return max(5, min(value, 30))


t = Thermostat(40)
t.target = 12
print(t.target)
