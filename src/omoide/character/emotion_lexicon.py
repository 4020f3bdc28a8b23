"""The words behind :mod:`omoide.character.emotion_reading`, in ko, ja, zh and en.

Each cue is a regular expression (matched on NFKC-normalised, casefolded text) with a
label and a strength: 1 a hint (``sleepy``, ``ㅠㅠ``), 2 a plain statement (``tired``,
``피곤해``), 3 a strong word (``exhausted``, ``외로워``, ``寂しい``). Labels are English
words the rest of omoide knows: each is a character emotion or one of
:data:`~omoide.character.emotion_words.EMOTION_SYNONYMS`, and each negative or positive
label is in the valence tables of :mod:`omoide.memory.emotions`.

Korean cues are word stems (``외로`` covers 외로워, 외로웠어, 외로운); Japanese stems stop
before the inflection (``寂し`` covers 寂しい, 寂しくて); Chinese and English cues are words.
Look-alikes are excluded where they are common (``아파트``, ``积累``, ``麻烦``, ``笑哭``).
"""

from __future__ import annotations

from typing import Final

NEGATIVE_LABELS: Final = frozenset(
    {"tired", "stressed", "lonely", "sad", "anxious", "scared", "angry", "sick", "embarrassed"}
)
POSITIVE_LABELS: Final = frozenset({"happy", "excited", "grateful", "relieved", "proud"})
OTHER_LABELS: Final = frozenset({"surprised", "bored"})
LABELS: Final = NEGATIVE_LABELS | POSITIVE_LABELS | OTHER_LABELS
NEGATED_POSITIVE: Final = "sad"
"""What a negated positive word reads as ("not happy", "안 행복해", "不开心", "楽しくない")."""

Cue = tuple[str, int, str]
"""(label, strength, pattern)."""

_EN = r"(?<![a-z'])(?:{})(?![a-z])"


def _en(label: str, strength: int, words: str) -> Cue:
    return (label, strength, _EN.format(words))


KOREAN: Final[tuple[Cue, ...]] = (
    ("sad", 3, r"마음이 아프|마음 아프|죽고 싶|살기 싫|우울|슬퍼|슬프|슬픈|슬픔|비참|절망"),
    ("sad", 2, r"속상|서운|섭섭|상처|눈물|울었|울고 싶|울컥|허전|허무|기분이 안 좋|기분 안 좋"
               r"|기분이 별로|기분 별로|기분이 나빠|기분 나빠|기분 최악"),
    ("sad", 1, r"ㅠㅠ|ㅜㅜ|ㅠㅜ|ㅜㅠ"),
    ("lonely", 3, r"외로|외롭|쓸쓸|고독"),
    ("lonely", 2, r"혼자라서|혼자라 |아무도 없|친구가 없"),
    ("tired", 3, r"지쳤|지쳐|지친|지침|녹초|기진맥진|번아웃|탈진"),
    ("tired", 2, r"피곤|졸려|졸리|졸림|기운이 없|기운 없|힘이 없|잠을 못 잤|잠 못 잤|못 잤"),
    ("tired", 1, r"밤샜|밤새웠|밤을 새"),
    ("stressed", 2, r"힘들|힘드|스트레스|답답|벅차|버거|빡세|빡셌|미치겠|돌겠"),
    ("anxious", 3, r"불안"),
    ("anxious", 2, r"걱정|떨려|떨리|떨린|긴장|초조|조마조마|막막"),
    ("scared", 3, r"무서|무섭|두려|두렵"),
    ("angry", 3, r"화나|화났|화가 나|화가 났|화난|열받|열 받|빡쳐|빡치|빡침|분노|분하"),
    ("angry", 2, r"짜증|어이없|어이가 없|억울|싫어 죽"),
    ("sick", 2, r"아파(?!트)|아프(?!리카)|아픈|감기|몸살|열이 나|열나|두통|배탈|병원에"),
    ("happy", 3, r"행복|기뻐|기쁘|기쁜|기쁨"),
    ("happy", 2, r"기분 좋|기분이 좋|즐거|즐겁|합격했|붙었어|붙었다|신기록"),
    ("happy", 1, r"재밌|재미있|좋았"),
    ("excited", 3, r"신나|신난|신났|설레|설렜|두근두근|기대돼|기대된|기대되|빨리 보고 싶"),
    ("grateful", 2, r"고마워|고맙|감사"),
    ("relieved", 2, r"다행|안심|한숨 돌"),
    ("proud", 2, r"뿌듯|자랑스러"),
    ("surprised", 2, r"놀랐|놀라|깜짝"),
    ("embarrassed", 2, r"부끄러|부끄럽|창피|쪽팔"),
    ("bored", 2, r"심심|지루"),
)  # fmt: skip

JAPANESE: Final[tuple[Cue, ...]] = (
    ("sad", 3, r"悲し|かなし|落ち込|凹ん|へこん|憂鬱|ゆううつ|死にたい|消えたい|傷つ"),
    ("sad", 2, r"つらい|つらかった|ツラい|辛い|辛かった|泣い|泣き|泣け|涙|切な|せつな|ショック"),
    ("sad", 1, r"残念|しょんぼり"),
    ("lonely", 3, r"寂し|さみし|さびし|淋し|孤独"),
    ("lonely", 1, r"ぼっち"),
    ("tired", 3, r"ヘトヘト|へとへと|クタクタ|くたくた|疲れ果て|疲れきっ|疲れ切っ"),
    ("tired", 2, r"疲れ|つかれ|しんど|だる|ダル|バテ|寝不足"),
    ("tired", 1, r"眠い|ねむい|眠たい|徹夜"),
    ("stressed", 2, r"ストレス|大変だ|追い詰め|余裕がな|いっぱいいっぱい"),
    ("stressed", 1, r"忙し"),
    ("anxious", 3, r"不安"),
    ("anxious", 2, r"心配|緊張|ハラハラ|焦っ|焦る"),
    ("anxious", 1, r"ドキドキ|どきどき"),
    ("scared", 3, r"怖|こわい|こわかった|恐ろし"),
    ("angry", 3, r"ムカつ|むかつ|ムカムカ|腹立|腹が立|怒っ|怒り|キレ|許せな"),
    ("angry", 2, r"イライラ|いらいら|うざ|ウザ"),
    ("sick", 2, r"風邪|熱が|熱っぽ|頭痛|頭が痛|お腹が痛|腹痛|具合が悪|体調が悪|体調悪|病気|吐き気"),
    ("happy", 3, r"嬉し|うれし|幸せ|しあわせ"),
    ("happy", 2, r"楽し(?!み)|たのし(?!み)|やった[ー〜~!！]|気分がいい|合格し"),
    ("happy", 1, r"よかった|良かった"),
    ("excited", 3, r"ワクワク|わくわく|待ちきれ|興奮"),
    ("excited", 2, r"楽しみ|テンション上が|テンションあが"),
    ("grateful", 2, r"ありがと|感謝|助かっ|助かり|助かる"),
    ("relieved", 2, r"ほっと|ホッと|安心"),
    ("proud", 2, r"誇らし"),
    ("surprised", 2, r"びっくり|ビックリ|驚い|驚き|まさか"),
    ("embarrassed", 2, r"恥ずかし|はずかし|照れ"),
    ("bored", 2, r"退屈|つまらな|つまんな"),
)  # fmt: skip

CHINESE: Final[tuple[Cue, ...]] = (
    ("sad", 3, r"难过|難過|伤心|傷心|悲伤|悲傷|抑郁|抑鬱|忧郁|憂鬱|失落|沮丧|沮喪|心碎|绝望|絕望"
               r"|想死|不想活"),
    ("sad", 2, r"(?<!笑)哭|郁闷|鬱悶|委屈|心情不好|心情很差|心情差|难受|難受|好惨|崩溃|崩潰"),
    ("sad", 1, r"呜呜|嗚嗚"),
    ("lonely", 3, r"孤独|孤獨|寂寞|孤单|孤單"),
    ("lonely", 2, r"没人陪|沒人陪|没有朋友|沒有朋友"),
    ("tired", 3, r"疲惫|疲憊|精疲力尽|精疲力盡|累死|心累"),
    ("tired", 2, r"(?<![积積])累(?![计計积積])|疲倦|疲劳|疲勞|困了|好困|很困|太困|困死|犯困"
                 r"|没精神|沒精神|没力气|沒力氣"),
    ("tired", 1, r"熬夜|想睡"),
    ("stressed", 2, r"压力|壓力|(?<!麻)烦(?!请|請)|(?<!麻)煩(?!请|請)|受不了|头大|頭大|焦头烂额"),
    ("stressed", 1, r"好忙|太忙|忙死"),
    ("anxious", 2, r"焦虑|焦慮|担心|擔心|紧张|緊張|忐忑|心慌|发慌|發慌|不安"),
    ("scared", 3, r"害怕|好怕|可怕|恐怖|吓死|嚇死|吓人|嚇人"),
    ("angry", 3, r"生气|生氣|气死|氣死|火大|愤怒|憤怒|恼火|惱火"),
    ("angry", 2, r"不爽|讨厌死|討厭死|无语|無語|烦死|煩死"),
    ("sick", 2, r"生病|感冒|发烧|發燒|头疼|頭疼|头痛|頭痛|肚子疼|不舒服|过敏了|過敏了"),
    ("happy", 3, r"开心|開心|高兴|高興|快乐|快樂|幸福|愉快"),
    ("happy", 2, r"太好了|好棒|太棒了|考过了|考過了"),
    ("happy", 1, r"(?<!不)爽"),
    ("excited", 3, r"兴奋|興奮|激动|激動|期待|迫不及待"),
    ("grateful", 2, r"谢谢|謝謝|感谢|感謝|多谢|多謝|感激"),
    ("relieved", 2, r"松了一口气|鬆了一口氣|松口气|鬆口氣|放心了"),
    ("proud", 2, r"骄傲|驕傲|自豪"),
    ("surprised", 2, r"惊讶|驚訝|吃惊|吃驚|没想到|沒想到|震惊|震驚"),
    ("embarrassed", 2, r"尴尬|尷尬|害羞|丢人|丟人"),
    ("bored", 2, r"无聊|無聊|没意思|沒意思"),
)  # fmt: skip

ENGLISH: Final[tuple[Cue, ...]] = (
    _en("happy", 3, r"never been happier|couldn'?t be happier|over the moon"),
    _en("sad", 3, r"depressed|depressing|miserable|heartbroken|devastated|grieving|grief"
                  r"|want to die|wanna die|kill myself|broke my heart"),
    _en("sad", 2, r"sad|unhappy|upset|cry|crying|cried|tears|feel(?:ing)? (?:so )?down"
                  r"|feel(?:ing)? blue|disappointed|gloomy|hurts? my feelings|lost my \w+"),
    _en("lonely", 3, r"lonely|lonesome|isolated|no one to talk to|nobody to talk to"),
    _en("lonely", 1, r"all alone|by myself again|no friends"),
    _en("tired", 3, r"exhausted|drained|worn out|burn(?:ed|t) out|wiped out|knackered"
                    r"|dead tired"),
    _en("tired", 2, r"tired|fatigued|no energy|didn'?t sleep|couldn'?t sleep|can'?t sleep"),
    _en("tired", 1, r"sleepy|stayed up all night"),
    _en("stressed", 3, r"overwhelmed|breaking down|falling apart"),
    _en("stressed", 2, r"stress|stressed|stressful|swamped|under pressure|struggling"
                       r"|(?:rough|hard|tough|bad|long) (?:day|week|night)"),
    _en("anxious", 3, r"anxious|anxiety|panic|panicking|freaking out"),
    _en("anxious", 2, r"nervous|worried|worry|worrying|on edge|uneasy|tense"),
    _en("scared", 3, r"scared|afraid|terrified|frightened"),
    _en("angry", 3, r"angry|furious|pissed|livid|rage"),
    _en("angry", 2, r"mad at|so mad|annoyed|annoying|irritated|frustrated|frustrating|fed up"),
    _en("sick", 2, r"sick|ill|fever|flu|headache|migraine|a cold|nauseous|sore throat"
                   r"|stomach ?ache|hospital"),
    _en("happy", 3, r"happy|joyful|delighted|overjoyed"),
    _en("happy", 2, r"glad|cheerful|pleased|great day|good day|feel(?:ing)? (?:great|good|amazing)"
                    r"|passed (?:my|the) \w+|got the job|yay+"),
    _en("excited", 3, r"excited|thrilled|hyped|pumped|stoked|can'?t wait"),
    _en("excited", 2, r"exciting|looking forward"),
    _en("grateful", 2, r"grateful|thankful|thanks|thank you|appreciate"),
    _en("relieved", 2, r"relieved|what a relief|phew"),
    _en("proud", 2, r"proud"),
    _en("surprised", 2, r"surprised|shocked|can'?t believe"),
    _en("embarrassed", 2, r"embarrassed|embarrassing|ashamed|cringe"),
    _en("bored", 2, r"bored|boring|nothing to do"),
)  # fmt: skip

EMOJI: Final[tuple[Cue, ...]] = (
    ("sad", 1, "[😢😭😞😔☹🙁💔🥲]"),
    ("angry", 1, "[😡😠🤬💢]"),
    ("tired", 1, "[😴😪🥱]"),
    ("anxious", 1, "[😰😨😟😥]"),
    ("happy", 1, "[😊😄😁😆🥳☺]"),
    ("grateful", 1, "[🙏]"),
)

ALL_CUES: Final = KOREAN + JAPANESE + CHINESE + ENGLISH + EMOJI

INTENSIFIERS: Final = (
    r"너무|넘|진짜|정말|엄청|완전|되게|매우|아주|존나|겁나|핵|많이|몹시"
    r"|とても|すごく|すっごく|めっちゃ|めちゃくちゃ|めちゃ|超|本当に|ほんとに|マジで|かなり|死ぬほど"
    r"|好|太|很|非常|特别|特別|真的|真|超级|超級|巨|挺|十分"
    r"|(?<![a-z])(?:so+|very|really|super|extremely|too|totally|completely|incredibly|absolutely"
    r"|utterly|deeply|seriously|insanely)(?![a-z])"
)
"""Words that make the feeling right after them stronger."""

AFTER_INTENSIFIERS: Final = (
    r"죽겠|미치겠|돌겠|すぎ|過ぎ|死んだ|死了|极了|極了|得要命|坏了|壞了"
    r"|(?<![a-z])(?:as hell|af|so much)(?![a-z])"
)
"""Words that make the feeling right before them stronger ("피곤해 죽겠어", "累死了")."""

SOFTENERS: Final = (
    r"조금|좀|약간|살짝|少し|ちょっと|ちょい|やや|有点|有點|有一点|稍微|一点"
    r"|(?<![a-z])(?:a bit|a little|kinda|kind of|sort of|slightly|somewhat)(?![a-z])"
)
"""Words that make the feeling right after them weaker."""

NEGATION_BEFORE: Final = (
    r"(?:(?<![가-힣])안|(?<![가-힣])못)\s*$"
    r"|(?:不|没有?|沒有?|别|別|并不|並不)(?:太|怎么|怎麼|那么|那麼|是很|是太|算|很|会|會)?$"
    r"|(?<![a-z])(?:not|never|no longer|hardly|barely|isn'?t|aren'?t|wasn'?t|weren'?t|don'?t"
    r"|doesn'?t|didn'?t|won'?t|ain'?t|not even)(?:\s+[a-z']+){0,2}\s+$"
)
"""A negation ending right before a cue ("안 힘들어", "不累", "not that tired")."""

NEGATION_AFTER: Final = (
    r"^[가-힣]{0,3}\s?(?:지|진|지는|지도)\s*(?:않|않|마|말)"
    r"|^[ぁ-ん]{0,4}(?:ない|なかっ|なく|ません|ず(?![っつ]))"
)
"""A negation right after a cue's stem ("힘들지 않아", "寂しくない", "疲れてない")."""

CONTRAST: Final = (
    r"하지만|그런데|근데|그래도|けど|けれど|でも|しかし|但是|可是|不过|不過|然而"
    r"|(?<![a-z])(?:but|though|however|yet)(?![a-z])"
)
"""After one of these the later feeling is the one that counts most."""
