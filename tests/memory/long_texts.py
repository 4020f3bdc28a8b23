"""Long mixed-language texts for tests: what a viewer pastes, with one sentence to find."""

from __future__ import annotations

FILLER = (
    "오늘은 날씨가 맑아서 공원에서 산책을 했어요. ",
    "今日は仕事が忙しくて疲れました。",
    "我昨天和朋友一起去吃火锅了。",
    "The train was late again this morning, so I missed the standup. ",
    "주말에는 동생이랑 같이 영화를 봤는데 꽤 재밌었어요. ",
    "駅前に新しいパン屋ができたので、帰りに寄ってみた。",
    "这个月的电费比上个月高了不少。",
    "I repainted the kitchen cabinets a pale green over the weekend. 🎨\n",
    "회사 앞 카페에서 새로 나온 라떼를 마셔봤어요. ",
    "雨の日は洗濯物が乾かなくて困る。",
    "我们公司下个月要搬到新的办公楼。",
    "A strange rattling noise comes from the laptop fan. ",
)
NEEDLE_WORD = "Gyeongju"
NEEDLE = f"My younger sister is getting married in {NEEDLE_WORD} next spring. "


def mixed_language_text(characters: int, *, needle: bool = True, needle_at: float = 0.8) -> str:
    """Exactly ``characters`` characters of Korean, Japanese, Chinese and English filler,
    with :data:`NEEDLE` (when ``needle``) placed ``needle_at`` of the way in."""
    parts: list[str] = []
    length = len(NEEDLE) if needle else 0
    while length < characters:
        parts.append(FILLER[len(parts) % len(FILLER)])
        length += len(parts[-1])
    if needle:
        parts.insert(int(len(parts) * needle_at), NEEDLE)
    return "".join(parts)[:characters]
