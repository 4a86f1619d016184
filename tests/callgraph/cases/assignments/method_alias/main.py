class Printer:
    def print_page(self, page):
        return f"page {page}"

    render = print_page


printer = Printer()
print_it = printer.print_page
print(print_it(1), printer.render(2))
