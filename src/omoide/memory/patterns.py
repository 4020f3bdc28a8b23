"""Multilingual pattern tables for the importance first pass (ko, ja, zh, en).

Three things live here, all pure functions over text:

* :func:`is_low_signal`: laughter, acknowledgements, emoji and punctuation that carry
  nothing worth remembering ("ㅋㅋ", "www", "草", "哈哈", "lol", "👍", "...").
* :data:`SIGNAL_GROUPS`: named groups of high-importance patterns (preferences, dates,
  identity, ...). Each group is one signal, counted once however often it matches.
* :func:`english_equivalent_length`: a message length that is fair to CJK scripts.

Text is compared after NFKC normalisation and casefolding, so full-width letters
("ｗｗｗ", "ＯＫ") and compatibility jamo behave like their plain forms.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Mapping
from types import MappingProxyType

from omoide.memory.pattern_gates import PatternGate, set_bits, top_level_alternatives

_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'"})


def normalise(text: str) -> str:
    """NFKC, casefold, typographic apostrophes made plain: the form patterns match."""
    return unicodedata.normalize("NFKC", text).casefold().translate(_APOSTROPHES)


def _compile(source: str) -> re.Pattern[str]:
    """Patterns are NFKC-normalised too: NFKC turns compatibility jamo (ㅋ) into
    conjoining jamo, and a pattern must match the text's normalised form."""
    return re.compile(unicodedata.normalize("NFKC", source))


_CONTENT_RUN = re.compile(r"[^\W_]+")
"""Runs of letters and digits: for ``str`` patterns ``\\w`` is ``str.isalnum()`` plus "_",
and ``isalnum()`` is exactly the Unicode categories L and N (the tests check every code
point)."""


def _content_tokens(text: str) -> list[str]:
    """Normalised words with punctuation, whitespace, emoji and joiners removed."""
    return _CONTENT_RUN.findall(normalise(text))


_REPEATED_RUN = re.compile(r"(.)\1+")


def _squeezed(token: str, *, keep: int) -> str:
    """Runs of one repeated character shortened to ``keep`` ("yesss" -> "yes" at 1)."""
    return _REPEATED_RUN.sub(lambda run: run.group(1) * min(keep, len(run.group(0))), token)


# --- low signal ---------------------------------------------------------------------


def _word_set(words: str) -> frozenset[str]:
    return frozenset(words.split())


_LATIN_ACKNOWLEDGEMENTS = _word_set(
    """
    lol lmao lmfao rofl kek xd ok okay okey okie oki k kk yeah yea ya yah ye yep yup yes
    yess no nope nah naw nice cool sure right true wow woah whoa oh ah aw aww uh um umm hmm
    hm mhm huh gg omg wtf same fr ikr idk bruh damn great awesome alright fine good lit
    based yay w oui ouais mdr ptdr si ja nein rs rsrs jsjs
    hi hello hey heya hiya yo sup howdy hai bye byebye bai cya gn gm gnight nite night
    morning evening everyone everybody chat guys all wb welcome gl hf glhf wp ggs ggwp o7
    pog poggers kekw lul lulw omegalul rip hype lfg letsgo nvm np yw see ya you too me
    later soon again there here go lets let s got it thats that's i
    tomorrow tmrw tmr tonight
    """
)
_LATIN_LAUGHTER = re.compile(
    r"(?:ha|he|ja|je|hue){2,}h?|hah?|heh|a?ha(?:ha)+|l+o+l+(?:o+l+)*|lm+f?a+o+|ro+fl"
    r"|k{2,}|w{2,}|x+d+|o+k+|m+h+m+|h+m+"
)
_CJK_UNITS = (
    # Korean: jamo laughter and tears, short reactions and acknowledgements
    r"[\u1100-\u11ff\u3131-\u318e]+|ㅋ+|ㅎ+|ㅠ+|ㅜ+|ㅡ+|ㅇㅇ+|ㅇㅋ|ㄱㄱ|ㄴㄴ|ㄹㅇ|ㄷㄷ+|응+|웅+|엉+|어+|네+|넹+|넵+|예|아+|오+"
    r"|와+|우와|헐|흠+|음+|맞아요?|맞지|맞네|맞음|그래요?|그렇구나|그렇군요|그렇지|그치|그쵸"
    r"|알았어요?|알겠어요?|알겠습니다|오케이|좋아요?|굿|대박|진짜|정말|레알|인정|아하+|오호+"
    r"|하하+|헤헤+|히히+|호호+|크크+|키키+|흐흐+|에이|엥|앗|와우"
    r"|ㅎㅇ|ㅂㅂ|ㅂㅇ|ㅃㅃ|ㅈㅈ|ㅊㅋ|ㅇㅈ|ㅍㅇㅌ|안녕+|안녕하세요|안녕히|안뇽|하이+|하이요|바이+|잘자요?"
    r"|잘|자요|주무세요|굿밤|굿나잇|반가워요?|반갑습니다|방가|수고하셨습니다|수고했어요?|수고"
    r"|화이팅|파이팅|굿굿|굳|넵넵|네네|ㅇㅋㅇㅋ|내일|봐요?|내일뵈요|내일봬요|또봐요?"
    # Japanese: laughter, aizuchi and reactions
    r"|笑|草|ワロタ|わろた|はい|うん+|ええ|そう|そうだね|そうですね|そうなんだ|そっか|そうか"
    r"|なるほど|了解|りょ|りょうかい|おけ|おっけー?|まじか?|マジか?|へー+|へぇ+|ほー+"
    r"|ふーん|あー+|おー+|えー+|わかる|たしかに|確かに|それな|だね|だよね|乙|おつ|いいね"
    r"|ナイス|うける|ウケる|おはよう?|おはよー|こんにちは|こんにちわ|こんばんは|こんばんわ"
    r"|おやすみ|おやすみなさい|おつかれ|おつかれさま|おつかれ様|お疲れ|お疲れさま|お疲れ様|です"
    r"|ございます|ばいばい"
    r"|バイバイ|またね|じゃあね|よろしく|よろ|ただいま|おかえり|やっほー?|どうも|ども"
    r"|また明日|またあした|明日ね|〜|ー"
    # Chinese: laughter, acknowledgements, internet numerals (666 = great, 233 = lol)
    r"|哈+|呵+|嘿+|嘻+|嗯+|噢+|哦+|啊+|好的?|好吧|好哒|好滴|对啊?|对的|是的|是啊|行|可以"
    r"|收到|知道了|明白|真的|确实|厉害|牛|笑死|吗|呢|吧|6{3,}|23{2,}|8{2,}"
    r"|你好|您好|大家好|早上好|早安|早|晚上好|晚安|拜拜|再见|再見|嗨|哈喽|哈囉|886|我来了|来了"
    r"|來了|辛苦了|加油|冲|沖|明天见|明天見|回头见|下次见|改天见"
    # Latin acknowledgements glued to CJK ("okㅋㅋ", "草w")
    r"|w+|ok|lol|lmao|k+"
    # a few from other languages: Spanish, Russian
    r"|sí|да+|нет|ок|ага|угу|х+а+(?:х+а+)*|а+х+(?:а+х+)*"
)
_CJK_ACKNOWLEDGEMENTS = _compile(
    "(?:(?>" + "|".join(sorted(_CJK_UNITS.split("|"), key=len, reverse=True)) + "))+"
)
"""Units are tried longest first and matched atomically, so matching stays linear even on
a long run of laughter that ends in something else ("ㅋㅋㅋ…ㅋ가")."""
_LATIN_TOKEN = re.compile(r"[a-z0-9]+")
_INTERNET_NUMERALS = re.compile(r"6{3,}|23{2,}|8{2,}|5{3,}")


def _is_low_signal_token(token: str) -> bool:
    forms = (
        {token, _squeezed(token, keep=2), _squeezed(token, keep=1)}
        if _REPEATED_RUN.search(token)
        else {token}
    )
    if _LATIN_TOKEN.fullmatch(token):
        return any(
            form in _LATIN_ACKNOWLEDGEMENTS
            or _LATIN_LAUGHTER.fullmatch(form)
            or _INTERNET_NUMERALS.fullmatch(form)
            for form in forms
        )
    return any(_CJK_ACKNOWLEDGEMENTS.fullmatch(form) for form in forms)


def is_low_signal(message: str) -> bool:
    """True for messages that carry nothing worth remembering or searching for.

    Empty, punctuation-only and emoji-only messages; one character repeated three or
    more times ("aaaa", "ㅋㅋㅋ"); and messages made only of laughter, acknowledgements,
    greetings, see-you-tomorrows and short reactions in Korean, Japanese, Chinese or
    English ("ㅋㅋ 응", "はいｗ", "哈哈哈", "ok lol", "yesss", "see you tomorrow!",
    "晚安 明天见"). A greeting with any other word ("gn ash", "gn, exam tomorrow") carries
    signal: a name cannot be told from news by its shape.
    """
    tokens = _content_tokens(message)
    if not tokens:
        return True
    joined = "".join(tokens)
    if len(joined) >= 3 and len(set(joined)) == 1:
        return True
    return all(_is_low_signal_token(token) for token in tokens)


# --- high-importance signal groups --------------------------------------------------

_EN_ADVERBS = r"(?:(?:really|just|absolutely|totally|also|actually|truly|genuinely|so|do)\s+)*"

SIGNAL_GROUPS: Mapping[str, re.Pattern[str]] = MappingProxyType(
    {
        "preference": _compile(
            r"(?<!안 )(?<!안)좋아(?:해|하|함|합|요)(?!지\s*않)|최애|제일 좋|가장 좋"
            r"|(?<!不)(?:大)?好き(?!じゃ|では|くな)|好物|推し|ハマって"
            r"|(?<!不)喜欢|最爱|爱吃|爱玩|爱看|爱听|热爱"
            rf"|\bi\s+{_EN_ADVERBS}(?:love|like|adore|enjoy)\b(?!\s+(?:you|u)\b)"
            r"|\bfavou?rite\b|\bfan of\b|\bi'?m\s+(?:really\s+)?into\b"
            r"|취미|趣味|爱好|\bhobb(?:y|ies)\b"
        ),
        "dislike": _compile(
            r"싫어|싫다|싫음|안 좋아해|좋아하지 않|질색"
            r"|嫌い|苦手|好きじゃ|好きでは|好きくな"
            r"|讨厌|不喜欢|受不了|不爱"
            r"|\b(?:hate|dislike|can'?t stand|cannot stand|detest|loathe)\b"
            r"|\b(?:don'?t|do not|never)\s+(?:really\s+)?(?:like|enjoy)\b|\bnot a fan\b"
        ),
        "date": _compile(
            r"생일|기념일|결혼|졸업|입학|시험|면접|\d{1,2}\s*월\s*\d{1,2}\s*일"
            r"|誕生日|記念日|結婚|卒業|入学|試験|面接|\d{1,2}\s*月\s*\d{1,2}\s*[日号]"
            r"|生日|纪念日|结婚|毕业|考试|面试"
            r"|birthday|\bb-?day\b|anniversary|graduat|wedding|\bmarried\b|\bexams?\b"
            r"|\binterview\b|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+"
            r"\d{1,2}(?:st|nd|rd|th)?\b"
        ),
        "identity": _compile(
            r"이름은|이름이|불러\s*줘|라고\s*불러|직업은|살이에요|살이야|살입니다"
            r"|名前は|名前が|って呼んで|と呼んで|と申します|仕事は|歳です|歳だ"
            r"|我叫|我的名字|叫我|我的工作|岁了|[\d一二三四五六七八九十两]+岁|[\d一二三四五六七八九十]+歳"
            r"|살 됐|살이 됐|살 되|살이 되|스무 살|서른 살|마흔 살"
            r"|\bturn(?:ed|ing)\s+(?:\d+|[a-z]+ty|eighteen|nineteen|sixteen|seventeen)\b"
            r"|my name|call me|\bi'?m called\b|\bi go by\b|\byears old\b|\bi work as\b"
            r"|\bmy job\b|\bi live in\b|\bi'?m from\b"
        ),
        "habit": _compile(
            r"항상|절대|반드시|매일|맨날|매번|언제나"
            r"|いつも|絶対|必ず|毎日|毎朝|毎晩|決して"
            r"|总是|从不|从来不|每天|一直|绝对|必须"
            r"|\balways\b|\bnever\b|\busually\b|\bevery\s+(?:day|morning|night|week)"
        ),
        "routine": _compile(
            r"매일|맨날|매주|매달|주말마다|아침마다|밤마다|[가-힣]+요일마다|평일마다"
            r"|毎日|毎朝|毎晩|毎週|毎月|週末は|いつも"
            r"|每天|每周|每週|每个周末|每個週末|每个月|每晚|每天早上"
            r"|\bevery\s+(?:day|morning|night|evening|week|weekend|month|monday|tuesday"
            r"|wednesday|thursday|friday|saturday|sunday)\b|\busually\b|\bon weekends\b"
        ),
        "unique": _compile(
            r"처음|마지막|유일"
            r"|初めて|はじめて|最後|唯一"
            r"|第一次|最后|唯一"
            r"|first time|for the first time|\bmy first\b|\blast time\b|\bthe last\b"
            r"|\bonly one\b|\bnever before\b"
        ),
        "affection": _compile(
            r"고마워|고맙|감사|사랑|보고\s*싶"
            r"|ありがとう|ありがと|感謝|愛して|会いたい"
            r"|谢谢|感谢|多谢|爱你|想你"
            r"|\bthank|\bthx\b|\bty\b|grateful|appreciate|\blove (?:you|u)\b|\bmiss (?:you|u)\b"
        ),
        "soon": _compile(  # a time to come, alone: "see you tomorrow", "snow tomorrow"
            r"다음\s*(?:주|달|번 주|학기)|내일|모레|이번\s*주말"
            r"|来週|来月|来年|明日|あした|明後日|今度の|週末"
            r"|下周|下週|下个月|下個月|明年|明天|后天|後天|这周末|這週末"
            r"|\bnext\s+(?:week|month|year|monday|tuesday|wednesday|thursday|friday|saturday"
            r"|sunday|weekend|semester)\b|\btomorrow\b|\bthis\s+weekend\b"
        ),
        "plan": _compile(
            r"예정|계획|준비\s*(?:하고|중)|이사|첫 출근|보러 가|하러 가|갈 거"
            r"|予定|つもり|引っ越|準備中|受ける|受験"
            r"|打算|准备|準備|计划|計劃|要去|要搬|搬家|搬到|搬去"
            r"|\bi'?m\s+(?:going|moving|getting|having|visiting|starting|applying|flying|leaving)\b"
            r"|\bi\s+(?:will|plan|want)\s+to\b|\bplanning\b|\bmy first day\b"
        ),
        "health": _compile(
            r"알레르기|알러지|입원|수술|약\s*먹|약을 먹|진단|우울증|불면|다쳤|임신|채식|비건"
            r"|못 먹|안 먹|못 마셔|안 마셔|편찮|병원"
            r"|アレルギー|病院|入院|手術|通院|診断|うつ病|怪我|ケガ|妊娠|ベジタリアン|ヴィーガン"
            r"|食べられな|飲めな|体調"
            r"|过敏|過敏|医院|醫院|住院|手术|手術|吃药|吃藥|确诊|確診|抑郁|失眠|受伤|受傷|怀孕"
            r"|懷孕|吃素|素食|不能吃|不能喝|不吃|不喝|身体不好|身體不好"
            r"|allerg|hospital|surger|diagnos|medication|antidepressant|therap|injur|pregnan"
            r"|vegetarian|vegan|\bcan'?t eat\b|\bcannot eat\b|\bdon'?t (?:eat|drink)\b"
            r"|insomnia|\bsick\b|잠이 안 와|잠을 못|眠れな|睡不着|睡不好"
            r"|\b(?:can'?t|couldn'?t|haven'?t been able to|unable to)\s+sleep\b"
        ),
        "family": _compile(
            r"엄마|아빠|어머니|아버지|부모님|동생|언니|오빠|누나|형이|형은|형한테|할머니|할아버지"
            r"|남편|아내|와이프|(?<![가-힣])딸(?!기)|아들|가족|남자\s*친구|여자\s*친구|남친|여친"
            r"|お母さん|お父さん|母|父|ママ|パパ|妹|弟|姉|兄|祖母|祖父|おばあちゃん|おじいちゃん"
            r"|旦那|嫁|娘|息子|家族|彼氏|彼女|赤ちゃん"
            r"|妈|媽|爸|奶奶|爷爷|爺爺|外婆|姥姥|哥哥|姐姐|弟弟|妹妹|老公|老婆|丈夫|妻子|女儿"
            r"|女兒|儿子|兒子|家人|男朋友|女朋友|宝宝|寶寶"
            r"|\bmy\s+(?:mom|mum|mother|dad|father|parents?|sister|brother|siblings?|grandma"
            r"|grandpa|grandmother|grandfather|wife|husband|son|daughter|kids?|family|boyfriend"
            r"|girlfriend|partner|baby|aunt|uncle|cousin)\b|\b(?:girlfriend|boyfriend)\b"
        ),
        "pet": _compile(
            r"강아지|고양이|반려|댕댕이|냥이|햄스터|앵무새|토끼|금붕어|키우"
            r"|ペット|ハムスター|インコ|うさぎ|飼って|飼い|うちの(?:犬|猫)"
            r"|宠物|寵物|仓鼠|倉鼠|鹦鹉|鸚鵡|兔子|养了|養了|我家(?:的)?(?:猫|狗)|狗狗|猫咪"
            r"|\bmy\s+(?:dog|cat|puppy|kitten|pet|hamster|parrot|bird|rabbit|bunny|fish|turtle"
            r"|guinea pig)s?\b|\bguinea pigs\b|\bi\s+have\s+(?:a|an|two|three)\s+(?:dog|cat"
            r"|puppy|kitten|hamster|parrot|rabbit|bunny|guinea pig)"
        ),
        "occupation": _compile(
            r"회사|직장|퇴근|야근|일하고|일해요|근무|학생|대학원|고등학교|대학교|전공|취업|취직"
            r"|승진|입사|퇴사"
            r"|会社|職場|働いて|働く|勤めて|学生|高校|大学|専攻|バイト|就職|昇進|入社|退職|残業"
            r"|公司|上班|加班|学生|學生|高中|高三|大学|大學|研究生|考研|专业|專業|打工|找到工作"
            r"|升职|升職|入职|辞职|程序员|護士|护士|老师|老師|医生|醫生"
            r"|\bmy\s+(?:job|work|boss|office|major|shift|manager|coworkers?)\b|\bat work\b"
            r"|\bi\s+work\b|\bwork as\b|\bstudent\b|\bhigh school\b|\bcollege\b"
            r"|\buniversity\b|\bgrad school\b|\binternship\b|\bpromoted\b|\bnew job\b"
            r"|\bfound a job\b|\bgot the job\b|\bgot hired\b|\bgot fired\b|\bquit my job\b"
            r"|\bi'?m\s+an?\s+(?!bit\b|little\b|lot\b|few\b|big fan\b)[a-z]+"
            r"|\bi\s+am\s+an?\s+(?!bit\b|little\b|lot\b|few\b)[a-z]+|我是"
        ),
        "home": _compile(
            r"살아요|살고 있|사는 곳|에 살아|에서 살|이사"
            r"|住んで|住み|引っ越|出身"
            r"|住在|住的地方|搬到|搬去|搬家|老家"
            r"|\bi\s+live\b|\bmoving to\b|\bmoved to\b|\bmy hometown\b|\bgrew up in\b"
        ),
        "vulnerability": _compile(
            r"무서워|무섭|힘들|외로|슬퍼|슬프|우울|불안|지쳤|지쳐|피곤|아파|죽고\s*싶"
            r"|怖い|寂しい|さみしい|さびしい|辛い|つらい|悲しい|疲れ|しんどい|不安|落ち込|死にたい"
            r"|害怕|孤独|寂寞|难过|伤心|(?<!积)累(?!计|积)|压力|焦虑|抑郁|想哭|痛苦"
            r"|\bscared\b|\bafraid\b|\blonely\b|\bsad\b|depress|anxious|anxiety|\btired\b"
            r"|exhausted|stressed|\bhurt|\bcry|\bcrying\b|worried|struggling|overwhelmed"
        ),
    }
)


DISCLOSURE_GROUPS = frozenset(
    {
        "preference", "dislike", "date", "identity", "plan", "health", "family", "pet",
        "occupation", "home", "routine", "vulnerability",
    }
)  # fmt: skip
"""Signal groups that tell something about the viewer; the others (``habit``, ``unique``,
``affection``, ``soon``) are weak on their own ("always", "first time", "thanks", a bare
"tomorrow": "see you tomorrow", "it might snow tomorrow" tell nothing of the viewer)."""

_FIRST_PERSON = _compile(
    r"(?<![가-힣])(?:저|제|나|내|난|전|우리)(?:는|가|도|의|랑|한테|요)?(?![가-힣])"
    r"|私|僕|俺|わたし|あたし|ぼく|おれ|うち|我"
    r"|\b(?:i|i'm|i've|i'll|i'd|im|my|me|mine|myself)\b"
)
_QUESTION_END = _compile(r"(?:[?？]|吗|嗎|呢|니|냐|까)[\s!！~〜.。]*$")


def asks_without_self(text: str) -> bool:
    """Whether a message is a question that says nothing about its sender ("너 롤 좋아해?",
    "ハルは何が好き？", "你喜欢什么？", "what do you like?")."""
    folded = normalise(text)
    return _QUESTION_END.search(folded) is not None and _FIRST_PERSON.search(folded) is None


_ALTERNATIVES = tuple(
    (name, re.compile(alternative))
    for name, pattern in SIGNAL_GROUPS.items()
    for alternative in top_level_alternatives(pattern.pattern)
)
"""Each signal group's alternatives on their own: a group matches when one of them does,
and the gate below skips those whose literals are missing from the text."""


@functools.cache
def _signal_gate() -> PatternGate:
    """Built on first use, not at import: it parses every signal's expression."""
    return PatternGate.of([pattern for _name, pattern in _ALTERNATIVES])


def matched_signals(text: str) -> tuple[str, ...]:
    """Names of the signal groups that match ``text``, each once, in table order."""
    folded = normalise(text)
    matched: set[str] = set()
    for index in set_bits(_signal_gate().possible(folded)):
        name, pattern = _ALTERNATIVES[index]
        if name not in matched and pattern.search(folded):
            matched.add(name)
    return tuple(name for name in SIGNAL_GROUPS if name in matched)


# --- length fair to CJK -------------------------------------------------------------

_HAN_WEIGHT = 4.0
_HANGUL_WEIGHT = 3.0
_KANA_WEIGHT = 2.5


_HANGUL = re.compile("[\uac00-\ud7a3\u1100-\u11ff\u3131-\u318e]")
_KANA = re.compile("[\u3040-\u30ff]")
_HAN = re.compile("[\u4e00-\u9fff\u3400-\u4dbf\uf900-\ufaff]")


def english_equivalent_length(text: str) -> float:
    """Length in "English characters": a fair long-message measure across scripts.

    Parallel sentences (the same content in English, Korean, Japanese and Chinese) are
    2.5-3x shorter in Hangul (spaces included), 2.5-3x in Japanese and 3.5-5x in Chinese,
    so a Hangul syllable counts 3, a kana 2.5 and a Han character 4; everything else
    (Latin letters, digits, spaces, punctuation) counts 1. Runs of one repeated character
    count at most twice, so "ㅋㅋㅋㅋㅋㅋ" or "!!!!!!" cannot make a message long.
    """
    squeezed = _squeezed(unicodedata.normalize("NFKC", text).strip(), keep=2)
    hangul = len(_HANGUL.findall(squeezed))
    kana = len(_KANA.findall(squeezed))
    han = len(_HAN.findall(squeezed))
    plain = len(squeezed) - hangul - kana - han
    return plain + _HANGUL_WEIGHT * hangul + _KANA_WEIGHT * kana + _HAN_WEIGHT * han


def _character_weight(character: str) -> float:
    if _HAN.match(character):
        return _HAN_WEIGHT
    if _HANGUL.match(character):
        return _HANGUL_WEIGHT
    return _KANA_WEIGHT if _KANA.match(character) else 1.0


def characters_within(text: str, length: float) -> int:
    """How many leading characters of ``text`` are at most ``length`` English characters
    (each weighed as :func:`english_equivalent_length` weighs it, runs not squeezed)."""
    total = 0.0
    for index, character in enumerate(text):
        total += _character_weight(character)
        if total > length:
            return index
    return len(text)
