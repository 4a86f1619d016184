def report(values):
    from analytics.stats import mean

    return mean(values)


def summary(values):
    import analytics.stats as stats

    return stats.spread(values)


print(report([1, 2, 3]), summary([4, 9]))
