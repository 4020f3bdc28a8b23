"""Which types of facts a message is about, from multilingual cue words.

A question like "요즘 뭐하면서 놀아요?" ("what do you do for fun these days?") shares no words
and little meaning with the fact "likes 롤 게임", yet it asks about exactly that type of
fact. Facts are typed so the prompt can carry the types that fit the current topic: a
message that cues a category lets that category's best facts in even when their
similarity to the message is low.
"""

from __future__ import annotations

import re
import unicodedata

from omoide.domain import FactCategory

_CUES: dict[FactCategory, tuple[str, ...]] = {
    FactCategory.PREFERENCE: (
        # English
        r"\bfun\b",
        r"\bhobb(y|ies)\b",
        r"\bfavou?rite",
        r"\bplay(ing|s)?\b",
        r"\bgames?\b",
        r"\blike\b",
        r"\blove\b",
        r"\benjoy",
        r"\bfree time\b",
        r"\bspare time\b",
        r"\binto\b",
        r"\brecommend",
        r"\bwatch(ing)?\b",
        r"\blisten(ing)?\b",
        r"\beat\b",
        r"\bfood\b",
        # Korean
        r"놀",
        r"취미",
        r"좋아",
        r"싫어",
        r"게임",
        r"재미",
        r"즐겨",
        r"추천",
        r"먹",
        r"음식",
        r"보(고|는|세요)",
        r"듣",
        # Japanese
        r"遊",
        r"趣味",
        r"好き",
        r"嫌い",
        r"ゲーム",
        r"楽し",
        r"おすすめ",
        r"食べ",
        r"ハマ",
        # Chinese
        r"玩",
        r"爱好",
        r"喜欢",
        r"讨厌",
        r"游戏",
        r"好玩",
        r"推荐",
        r"吃",
    ),
    FactCategory.PERSONAL: (
        r"\bjob\b",
        r"\bwork\b",
        r"\blive\b",
        r"\bname\b",
        r"\bbirthday\b",
        r"\bage\b",
        r"\bpets?\b",
        r"\bfamily\b",
        r"\ballerg",
        r"\bfrom\b",
        r"직업",
        r"일(해|하)",
        r"회사",
        r"살(아|고)",
        r"이름",
        r"생일",
        r"나이",
        r"가족",
        r"반려",
        r"알레르기",
        r"仕事",
        r"住ん",
        r"名前",
        r"誕生日",
        r"年齢",
        r"家族",
        r"ペット",
        r"アレルギー",
        r"工作",
        r"住在",
        r"名字",
        r"生日",
        r"年龄",
        r"家人",
        r"宠物",
        r"过敏",
    ),
    FactCategory.EMOTION: (
        r"\bfeel",
        r"\bmood\b",
        r"\btired\b",
        r"\bsad\b",
        r"\bstress",
        r"\blonely\b",
        r"\bupset\b",
        r"기분",
        r"힘들",
        r"피곤",
        r"우울",
        r"외로",
        r"슬퍼",
        r"스트레스",
        r"気分",
        r"疲れ",
        r"辛い",
        r"寂し",
        r"悲し",
        r"ストレス",
        r"心情",
        r"累",
        r"难过",
        r"孤独",
        r"伤心",
        r"压力",
    ),
    FactCategory.HABIT: (
        r"\busually\b",
        r"\balways\b",
        r"\bevery (day|night|morning|week)\b",
        r"\broutine\b",
        r"\bhabit",
        r"보통",
        r"항상",
        r"매일",
        r"맨날",
        r"습관",
        r"いつも",
        r"毎日",
        r"普段",
        r"習慣",
        r"总是",
        r"每天",
        r"平时",
        r"习惯",
    ),
    FactCategory.GOAL: (
        r"\bgoal",
        r"\bdream",
        r"\bplan",
        r"\bwant to\b",
        r"\bhope\b",
        r"\bfuture\b",
        r"목표",
        r"꿈",
        r"계획",
        r"하고 싶",
        r"되고 싶",
        r"目標",
        r"夢",
        r"予定",
        r"将来",
        r"たい",
        r"目标",
        r"梦想",
        r"计划",
        r"想要",
        r"将来",
    ),
}

_COMPILED = {
    category: re.compile("|".join(patterns), re.IGNORECASE) for category, patterns in _CUES.items()
}


def cued_categories(message: str) -> frozenset[FactCategory]:
    """The fact categories a message cues (empty when it cues none)."""
    text = unicodedata.normalize("NFKC", message).casefold()
    return frozenset(category for category, pattern in _COMPILED.items() if pattern.search(text))
