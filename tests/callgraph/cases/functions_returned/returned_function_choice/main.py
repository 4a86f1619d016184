def quick_sort(values):
    return sorted(values)


def stable_sort(values):
    return sorted(values, key=str)


def pick_sorter(stable):
    return stable_sort if stable else quick_sort


def sort_records(records, stable):
    sorter = pick_sorter(stable)
    return sorter(records)


print(sort_records([3, 1, 2], stable=True))
