from pkg.text import permalink, slugify

print(slugify("Hello World"), permalink("Release Notes"))
