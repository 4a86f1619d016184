class Inventory:
    def __init__(self):
        self.stock = {}

    def __len__(self):
        return len(self.stock)

    def __contains__(self, item):
        return item in self.stock

    def __getitem__(self, item):
        return self.stock.get(item, 0)

    def __setitem__(self, item, count):
        self.stock[item] = count


inventory = Inventory()
inventory["apple"] = 3
print(len(inventory), "apple" in inventory, inventory["apple"])
