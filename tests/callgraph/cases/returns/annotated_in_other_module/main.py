from factories import make_button

print(make_button("ok").click())
