"""The game played now: a viewer who moved on to another game.

"요즘 철권만 함", "最近モンハンばっかやってる", "最近沉迷金铲铲之战 上钻石了", "rocket league
got me, diamond 2": the viewer plays another game now. What they told of the game before
("배그 이번 시즌 다이아 찍음", "apex servers ate my game AGAIN") was rarely typed as the game
played now (a rank, a bad night, a guild meet-up), so no slot ties them to the new statement.
They are tied by what they talk of: a game's own words (ranks, queues, guilds, gacha, 上分,
랭크, ウデマエ), and by not naming the game played now.

A switch is told by the game-now rules ("I only play X now", "요즘 X만 해") or by a statement
that is hooked on something ("obsessed with", "got me", 빠졌, ハマって, 沉迷) or leaves
something behind ("haven't touched", 예전 게임, 前の, 不玩了) while it talks of a game. The
newest fact of the other game is what it replaces (a decision ``update``); the other facts of
it end (:mod:`omoide.memory.extraction.outdating`). Another person's switch ("my brother
switched to Valorant") is none of the viewer's; facts of other people ("my wife plays
Pokémon", "妻はポケモンやってる"), plans, who the viewer is and their health are never
ended; the viewer playing with a friend ("배그 듀오 하다가 친구 먼저 죽어서 싸움") is the
viewer's own play.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from omoide.domain import Fact
from omoide.memory.extraction.syntax import OTHER_PERSON
from omoide.memory.extraction.value_words import holds, value_words
from omoide.memory.extraction.values import FactCandidate
from omoide.memory.facets import Facet, facet_of
from omoide.memory.facts.text import slot_parts

GAME_TALK = re.compile(
    r"\b(?:gaming|gamer|gamers|ranked|elo|mmr|grandmaster|battle\s*pass|speedrun)\b"
    r"|\b(?:my|the|this|that|a|new|old)\s+game\b|\bgames?\s+(?:night|nights|all\s+day)\b"
    r"|\b(?:plat(?:inum)?|diamond|gold|silver|bronze|champ|master)\s+(?:\d|i{1,3}v?\b|iv\b)"
    r"|게임|(?<![가-힣])(?:겜|템)|랭크|랭겜|솔랭|티어|다이아|그마|챌린저|듀오|스쿼드|만렙|현질|가챠"
    r"|고정팟|길드"
    r"|ゲーム|ランク|ウデマエ|ガチマ|ガチャ|周回|課金|ボイチャ"
    r"|游戏|手游|上分|段位|王牌|上钻|上王者|星耀|四排|双排|三排|开黑|赛季|排位|吃鸡|上星|掉星"
    r"|氪金|抽卡|副本|公会",
    re.IGNORECASE,
)
"""Words only talk of a video game holds (a rank with its tier, ranked play, a guild,
gacha), in the four languages; not "play" (an instrument, a sport), not words with other
lives ("server", "steam", "queue", "season", "boss", "2판" of pizza), nor a game's own name
(no list of games is kept)."""

MOVED_ON = re.compile(
    r"\b(?:only|just)\s+play(?:ing)?\b|\bhooked\s+on\b|\bobsessed\s+with\b|\baddicted\s+to\b"
    r"|\bgot\s+me\b|\bswitched\s+(?:to|over)\b|\bhaven'?t\s+(?:touched|played|opened)\b"
    r"|\bnew\s+(?:game|obsession|main)\b"
    r"|만\s?(?:해|함|하고|한다|하는|합니다|했)|빠져|빠졌|꽂혀|꽂혔|중독|갈아탔|갈아탐|예전\s?게임"
    r"|접속도?\s?안|ばっか|ばかり|一筋|ハマって|はまって|乗り換え|引退|起動してない|前のゲーム"
    r"|沉迷|迷上|入坑|只玩|改玩|换成|不玩|弃坑|退坑|上头",
    re.IGNORECASE,
)
"""What says the viewer is taken by something now or left something behind."""

_NOT_GAMES = frozenset(
    str.split(
        "운동 공부 일 알바 다이어트 헬스 독서 육아 수영 피아노 기타 드럼 勉強 仕事 運動 筋トレ"
        " バイト ダイエット 子育て 育児 家事 ピアノ ギター 学习 工作 运动 减肥 健身 带娃 钢琴 吉他"
        " work study gym piano guitar drums violin"
    )
)
"""What "요즘 X만 해" says of something that is no game."""
_SOMEONE_ELSE = re.compile(
    r"^(?:my|our)\s+(?:\w+\s+)?(?:brother|sister|mom|mum|dad|wife|husband|friend|roommate|bf|gf"
    r"|boyfriend|girlfriend|son|daughter|kids?|cousin|partner|coworker)\b"
    r"|^我?(?:老婆|老公|妈|爸|哥|姐|弟|妹|朋友|室友|儿子|女儿|同事)",
    re.IGNORECASE,
)
"""A fact whose subject is another person ("my wife plays Pokémon", "我老公在玩…"); Korean
and Japanese subjects: :data:`~omoide.memory.extraction.syntax.OTHER_PERSON`."""
_PLAY = frozenset({Facet.LIKES, Facet.HABITS, Facet.SITUATION, Facet.PEOPLE})
"""The groups a fact of the viewer's own play is in."""


def plays_now(candidate: FactCandidate) -> bool:
    """Whether ``candidate`` tells of the game the viewer plays now, a different one
    perhaps: a game-now statement, or one hooked on or leaving something while it talks
    of a game."""
    if _of_someone_else(candidate.text):
        return False
    if candidate.slot is not None and slot_parts(candidate.slot)[0] == "game_now":
        return not {term.casefold() for term in candidate.terms} & _NOT_GAMES
    return bool(MOVED_ON.search(candidate.text) and GAME_TALK.search(candidate.text))


def of_another_game(candidate: FactCandidate, facts: Sequence[Fact]) -> list[Fact]:
    """The viewer's facts that talk of a game and name none of what ``candidate`` (the game
    played now) says, newest first: what they told of the game before."""
    said_now = _named(candidate)
    return sorted(
        (
            fact
            for fact in facts
            if _the_viewers_own(fact)
            and GAME_TALK.search(fact.text)
            and not _names_any(fact.text, said_now)
        ),
        key=lambda fact: (fact.recorded_at, fact.id),
        reverse=True,
    )


def game_left(candidate: FactCandidate, facts: Sequence[Fact]) -> Fact | None:
    """The newest fact of the game played before, when ``candidate`` tells of another one
    played now: what the switch replaces."""
    if not plays_now(candidate):
        return None
    before = of_another_game(candidate, facts)
    return before[0] if before else None


def _the_viewers_own(fact: Fact) -> bool:
    """Whether ``fact`` tells of the viewer's own play of the moment: a like, a habit, what
    is going on, or the viewer playing with a friend (a fact of the people group not about
    another person); never who they are, their health, how to talk to them or a plan."""
    facet = facet_of(fact)
    if facet not in _PLAY:
        return False
    return facet is not Facet.PEOPLE or not _of_someone_else(fact.text)


def _of_someone_else(text: str) -> bool:
    return bool(OTHER_PERSON.search(text) or _SOMEONE_ELSE.search(text))


def _named(candidate: FactCandidate) -> frozenset[str]:
    """What ``candidate`` names besides a game's own words (its rank, "랭크"): the game."""
    words = {term.casefold() for term in candidate.terms if len(term) >= 2}
    words.update(value_words(candidate.text))
    return frozenset(word for word in words if not GAME_TALK.search(word))


def _names_any(text: str, words: frozenset[str]) -> bool:
    folded = text.casefold()
    return any(holds(folded, word) for word in words)
