"""A small inventory of items with quantities and prices."""


class Inventory:
    def __init__(self):
        self.items = {}

    def add(self, name, quantity, price):
        if quantity <= 0:
            raise ValueError("quantity must be positive")
        current = self.items.get(name, (0, price))
        self.items[name] = (current[0] + quantity, price)

    def remove(self, name, quantity):
        count, price = self.items[name]
        if quantity > count:
            raise ValueError("not enough " + name)
        self.items[name] = (count - quantity, price)

    def total_value(self):
        return sum(count * price for count, price in self.items.values())


if __name__ == "__main__":
    stock = Inventory()
    stock.add("apple", 10, 0.5)
    stock.add("pear", 4, 0.75)
    print("total:", stock.total_value())
