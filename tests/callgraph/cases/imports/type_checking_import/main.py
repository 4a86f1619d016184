from models import User
from views import greeting

print(greeting(User("ann")))
