import plugins.csv_plugin
from plugins.json_plugin import install
from registry import handle, start

install()
start()
print(handle("csv", "a,b"), handle("json", "[1]"))
