def ping():
    return "ping"


def pong():
    return "pong"


class Player:
    def hit(self):
        return self.stroke()


class Pro(Player):
    pass


amateur = Player()
amateur.stroke = ping
pro = Pro()
pro.stroke = pong
print(pro.stroke(), amateur.hit(), pro.hit())
