class Leaderboard:
    def __init__(self, players):
        self.players = players

    def weight(self, player):
        return player["score"]

    def top(self):
        return max(self.players, key=lambda p: self.weight(p))


print(Leaderboard([{"score": 3}, {"score": 9}]).top())
