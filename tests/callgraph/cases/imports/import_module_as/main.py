import pkg.text
import pkg.text as text_utils

print(text_utils.slugify("Hello World"), pkg.text.permalink("Release Notes"))
