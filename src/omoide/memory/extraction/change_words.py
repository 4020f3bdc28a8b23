"""The words of a change: what says something the viewer told no longer holds.

Read by :mod:`omoide.memory.extraction.mentions` (is a fact told in passing a change?) and
by the rules' decisions (:mod:`omoide.memory.extraction.replacing`: what it replaces).
"""

from __future__ import annotations

import re

_WORK_KINDS = frozenset({"told_work", "job", "workplace"})
CHANGING_KINDS: dict[str, frozenset[str]] = {kind: _WORK_KINDS for kind in _WORK_KINDS}
"""Kinds of facts a viewer's change replaces ("finally got a job", "辞职了", "転職した",
"我现在在花店上班"), and the kinds of fact (slot prefixes) each replaces: what they did for
a living."""
WORK_CHANGE = re.compile(
    r"\b(?:switched|changed|quit|no\s+longer|anymore|finally|new\s+job|got\s+(?:a|the)\s+job"
    r"|got\s+hired|now\s+i'?m|these\s+days|first\s+(?:day|week|shift|month)s?\s+(?:done\s+|over\s+)?at"
    r"|started\s+(?:a\s+|my\s+)?(?:new\s+)?(?:job|work|working)|new\s+(?:company|workplace))\b"
    r"|드디어|이제는|바꿨|옮겼|그만뒀|그만두고|관뒀|퇴사|이직|취업했|합격|옮김|바꿈|관둠|그만둠"
    r"|새\s?(?:회사|직장|알바)|(?:알바|일)\s?시작했|(?:알바|일)\s?시작함"
    r"|ついに|やっと|辞めた|辞めて|転職|変えた|変わった|今は|就職した|入社"
    r"|(?:バイト|仕事|パート|勤め)(?:を)?(?:始め|はじめ)|働き(?:始め|はじめ)"
    r"|新しい(?:会社|職場|バイト)"
    r"|终于|辞职|换了|换工作|新工作|入职|不再|现在是|现在在|改成|跳槽|不干了|新公司|新单位",
    re.IGNORECASE,
)
"""A viewer saying their work changed: the new fact replaces what they did before."""
WORKING_AT_NOW = re.compile(
    r"\b(?:lately|currently|nowadays|these\s+days|now)\b.{0,40}\bworking\s+(?:as|at)\b"
    r"|\bworking\s+(?:as|at)\b.{0,60}\b(?:now|lately|currently|these\s+days)\b"
    r"|요즘.{0,30}에서\s?(?:일해|일하|일함|근무)|最近.{0,30}で(?:働い|バイトし|勤務)"
    r"|最近.{0,10}在\S{1,8}(?:工作|上班|打工)",
    re.IGNORECASE,
)
"""A viewer telling where they work these days ("요즘 스크린골프장에서 일하는데", "最近カラオケで
働いてる", "working at the garden centre now"): what holds now, so a change when they told
of other work before."""
PONDERING = re.compile(
    r"\b(?:thinking\s+(?:about|of)|considering|might|maybe|wanna|want\s+to|would\s+like"
    r"|hoping\s+to|planning\s+to|should\s+i)\b"
    r"|고민|생각\s?(?:중|하고|해|만)|할까|싶|考え中|考えて|迷って|迷い中|悩んで|悩み中|しようかな"
    r"|したい|かも|考虑|打算|犹豫|要不要|想要|想(?:辞|换|跳|转|去)",
    re.IGNORECASE,
)
"""A viewer weighing a change, not telling one ("転職考え中", "이직 고민 중", "thinking about
quitting", "想辞职"): the work they told of still holds."""
RENAMED = re.compile(
    r"\b(?:renamed|changed|switched|moved|instead|no\s+longer|anymore|update:)"
    r"|바꿨|바꾸기로|바뀌었|변경|개명|옮겼|이사\s?(?:했|왔|갔|끝)"
    r"|変更|変えた|変わった|改名|引っ越した|引っ越しました|やめにした"
    r"|换了|换成|改成|改名|改了|搬到|搬家了|不再",
    re.IGNORECASE,
)
"""A viewer saying something they told changed (a pet renamed, a trip moved, a home
changed): the new fact replaces the one of its group holding the same word."""
NAMED = re.compile(
    r"\b(?:renamed|names?|named|call(?:ed|ing)?)\b|이름|개명|名前|改名|名字|叫",
    re.IGNORECASE,
)
"""Of a pet or a person, only a new name is a change that replaces what was told: "gave the
tortoise a bigger tank" (给乌龟换了个大缸), "switched my dog's food", "my brother changed
jobs" are news beside it."""
