class Temperature:
    def __init__(self, celsius):
        self._celsius = celsius

    def _get_fahrenheit(self):
        return self._celsius * 9 / 5 + 32

    def _set_fahrenheit(self, value):
        self._celsius = (value - 32) * 5 / 9

    def _get_kelvin(self):
        return self._celsius + 273.15

    fahrenheit = property(_get_fahrenheit, _set_fahrenheit)
    kelvin = property(_get_kelvin)

    def report(self):
        return f"{self.fahrenheit:.1f}F {self.kelvin:.1f}K"


t = Temperature(20)
t.fahrenheit = 212
print(t.report())
