class Playlist:
    def __init__(self, *songs):
        self.songs = list(songs)

    def __iter__(self):
        return iter(self.songs)


class Countdown:
    def __init__(self, start):
        self.current = start

    def __iter__(self):
        return self

    def __next__(self):
        if self.current == 0:
            raise StopIteration
        self.current -= 1
        return self.current


for song in Playlist("intro", "outro"):
    print(song)
print([n for n in Countdown(3)])
