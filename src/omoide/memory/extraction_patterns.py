"""Pattern tables for rule-based fact extraction in Korean, Japanese, Chinese and English.

Each :class:`FactRule` is matched against one clause of the viewer's message (NFKC form,
case kept) and captures the viewer's own words in a group named ``obj``; pet rules may
also capture ``name``, habit rules ``freq``. The rule's ``script`` chooses how the
captured words are cleaned (particles, adverbs and the speaker's own pronoun trimmed).

Rules only fire for statements about the speaker: English rules need "I"/"my"; Chinese
rules are anchored to a clause that starts with 我 (or nothing) and adverbs; Korean and
Japanese, which drop the subject, skip clauses whose subject is someone else
(see ``OTHER_PERSON``). Negated likes are dislikes, matched by their own rules.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from omoide.memory.fact_text import RELATIONS, Relation

Script = Literal["en", "ko", "ja", "zh"]


@dataclass(frozen=True, slots=True)
class FactRule:
    relation: Relation | None
    """``None`` for habit rules: the relation follows the captured frequency."""
    script: Script
    pattern: re.Pattern[str]


def _words(text: str) -> str:
    return "|".join(sorted(text.split(), key=len, reverse=True))


# --- vocabularies -------------------------------------------------------------------

EN_ADVERBS = _words(
    "really just absolutely totally also actually truly genuinely do seriously honestly "
    "literally still kinda lowkey super so especially definitely always"
)
KO_SELF = _words("나 나는 난 저 저는 전 내가 제가 나도 저도 나두 저두")
KO_ADVERBS = _words(
    "엄청 정말 진짜 너무 완전 제일 가장 젤 되게 많이 진심 정말로 매우 아주 꽤 특히 요즘 사실 "
    "원래 좀 살짝 은근 은근히 지금 현재 요새 진짜로 완전히 대박 겁나 존나 무척 참 여전히 "
    "별로 그다지"
)
KO_STRONG = _words(
    "엄청 정말 진짜 너무 완전 제일 가장 젤 되게 진심 정말로 매우 아주 대박 겁나 무척"
)
JA_SELF = _words("私 わたし あたし 僕 ぼく 俺 おれ うち 自分 わい")
JA_ADVERBS = _words(
    "本当に ほんとに ほんと めっちゃ めちゃくちゃ めちゃ すごく すっごく とても 超 マジで まじで "
    "実は 特に 昔から 最近 やっぱり やっぱ 一番 かなり 結構 けっこう 普通に ずっと "
    "今 いま 今は 現在"
)
JA_STRONG = _words(
    "本当に ほんとに めっちゃ めちゃくちゃ すごく すっごく とても 超 マジで まじで 一番 かなり"
)
ZH_ADVERBS = _words(
    "也 还 都 就 真的 很 超 超级 最 特别 非常 比较 挺 更 一直 蛮 好 真 太 确实 其实 从小就 一向 "
    "向来 现在 目前 特 老 贼"
)
ZH_CONJUNCTIONS = _words("因为 所以 但是 不过 而且 其实 反正 然后 说实话 老实说 可是 但")
ZH_STRONG = r"最(?=喜欢|爱|讨厌|不喜欢)|超级|超爱|特别|非常|真的|贼|热爱"
EN_STRONG = r"really|absolutely|totally|truly|genuinely|seriously|so much|love|adore|favou?rite"

EN_PETS = _words(
    "cat cats kitten kittens dog dogs puppy puppies hamster hamsters rabbit rabbits bunny "
    "bunnies parrot parrots bird birds fish goldfish turtle turtles tortoise snake snakes "
    "lizard lizards ferret ferrets hedgehog hedgehogs gecko geckos budgie budgies pet pets"
)
KO_PETS = _words(
    "고양이 강아지 개 햄스터 토끼 앵무새 새 물고기 금붕어 거북이 고슴도치 뱀 도마뱀 반려견 반려묘 "
    "반려동물 냥이 댕댕이 페럿"
)
JA_PETS = _words(
    "猫 ねこ ネコ 子猫 犬 いぬ イヌ 子犬 ハムスター うさぎ ウサギ 兎 インコ オウム 鳥 金魚 魚 "
    "亀 カメ "
    "ハリネズミ フェレット 蛇 ヘビ トカゲ ペット"
)
ZH_PETS = _words("猫 猫咪 小猫 狗 小狗 狗狗 仓鼠 兔子 鹦鹉 鸟 金鱼 鱼 乌龟 刺猬 蛇 蜥蜴 宠物")

EN_JOBS = _words(
    "teacher student nurse doctor engineer developer programmer designer artist writer "
    "author chef cook cashier barista waiter waitress driver lawyer accountant pharmacist "
    "dentist firefighter officer soldier farmer streamer vtuber youtuber creator "
    "illustrator animator musician singer dancer actor actress photographer editor "
    "journalist reporter translator interpreter researcher scientist professor lecturer "
    "tutor manager consultant analyst clerk salesperson mechanic electrician plumber "
    "carpenter pilot vet veterinarian therapist counselor counsellor secretary "
    "receptionist freelancer worker servant intern housewife homemaker retiree "
    "librarian paramedic surgeon cop"
)
KO_JOBS = _words(
    "회사원 직장인 공무원 학생 대학생 고등학생 중학생 대학원생 취준생 간호사 의사 교사 선생님 약사 "
    "기자 작가 화가 주부 백수 프리랜서 디자이너 엔지니어 프로그래머 개발자 유튜버 스트리머 "
    "크리에이터 일러스트레이터 마케터 군인 경찰 경찰관 소방관 요리사 변호사 회계사 미용사 연구원 "
    "알바생 은행원 승무원 성우 가수 배우 교수"
)
JA_JOBS = _words(
    "会社員 社会人 公務員 学生 大学生 高校生 中学生 大学院生 就活生 看護師 医者 医師 教師 先生 "
    "薬剤師 記者 作家 漫画家 画家 主婦 主夫 無職 ニート フリーター フリーランス 自営業 デザイナー "
    "エンジニア プログラマー イラストレーター 声優 歌手 配信者 VTuber YouTuber バイト アルバイト "
    "店員 美容師 保育士 弁護士 研究者 警察官 消防士 料理人 教授 看護学生"
)
ZH_JOBS = _words(
    "学生 大学生 高中生 初中生 研究生 程序员 老师 教师 医生 护士 工程师 设计师 会计 律师 厨师 司机 "
    "公务员 上班族 自由职业者 主播 画师 作家 警察 军人 销售 店员 服务员 打工人 社畜 博士生 教授"
)

ZH_PREFIX = rf"^\s*(?:(?:{ZH_CONJUNCTIONS})\s*)*(?:我|本人)?\s*(?:(?:{ZH_ADVERBS})\s*)*"
ZH_I_PREFIX = rf"^\s*(?:(?:{ZH_CONJUNCTIONS})\s*)*(?:我|本人)\s*(?:(?:{ZH_ADVERBS})\s*)*"
_KO_COPULA = (
    r"(?:이에요|예요|에요|이야|야|입니다|이고|이다|임|이요|요|라고\s*해요?|이라고\s*해요?)?"
)
_JA_COPULA = r"(?:です(?:よ|ね)?|だよ?|って言います|っていいます|と言います|といいます|と申します)?"
_KO_NUM = r"(?:\d{1,2}|[일이삼사오육칠팔구십]{1,3})"
_ZH_NUM = r"(?:\d{1,2}|[一二三四五六七八九十]{1,3})"
_EN_MONTHS = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
_EN_DATE = (
    rf"(?:{_EN_MONTHS}\.?\s+\d{{1,2}}(?:st|nd|rd|th)?|\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?"
    rf"{_EN_MONTHS}|\d{{1,2}}/\d{{1,2}}(?:/\d{{2,4}})?|\d{{4}}-\d{{2}}-\d{{2}})"
)
_I = r"\bI"
_I_AM = r"\bI(?:'m|\s+am|m)"
_EN_ADV = rf"(?:(?:{EN_ADVERBS})\s+)*"

OTHER_PERSON = re.compile(
    r"(?:^|\s)(?:동생|엄마|아빠|어머니|아버지|친구|형|누나|언니|오빠|남친|여친|남자친구"
    r"|여자친구|남편|아내|와이프|아들|딸|걔|쟤|그녀|할머니|할아버지|선생님|사장님|너|당신|니|네)"
    r"(?:이|가|은|는|도|께서)(?=\s|$)|(?:^|\s)(?:너|넌|걔|쟤)(?=\s|$)"
    r"|(?:弟|妹|兄|姉|母|父|ママ|パパ|友達|友だち|彼氏|彼女|彼|夫|妻|旦那|嫁|息子|娘|先生"
    r"|あなた|君|きみ|お前|おまえ)(?:さん|ちゃん|くん)?(?:は|が|も)"
)
"""A Korean or Japanese clause whose subject is someone other than the speaker."""


def _rule(key: str | None, script: Script, pattern: str) -> FactRule:
    relation = RELATIONS[key] if key is not None else None
    return FactRule(relation, script, re.compile(pattern, re.IGNORECASE))


_EN_RULES = (
    _rule("dislikes", "en", rf"{_I}\s+{_EN_ADV}(?:(?:do\s+not|don'?t|dont|never|didn'?t)\s+"
          rf"{_EN_ADV}(?:liked?|enjoy(?:ed)?|loved?|care\s+for)|hate|dislike|detest|loathe"
          rf"|can'?t\s+stand|cannot\s+stand)\s+(?P<obj>.+)"),
    _rule("dislikes", "en", rf"{_I_AM}\s+not\s+(?:a\s+(?:big\s+|huge\s+)?fan\s+of|{_EN_ADV}into)"
          r"\s+(?P<obj>.+)"),
    _rule("likes", "en", rf"{_I}\s+{_EN_ADV}(?:love|like|adore|enjoy)\s+(?P<obj>.+)"),
    _rule("likes", "en", rf"{_I_AM}\s+{_EN_ADV}(?:an?\s+(?:big\s+|huge\s+)?fan\s+of|into"
          r"|obsessed\s+with|crazy\s+about|hooked\s+on)\s+(?P<obj>.+)"),
    _rule("likes", "en", rf"{_I_AM}\s+an?\s+(?:huge\s+|big\s+|massive\s+)?"
          r"(?P<obj>(?!(?:huge|big|massive)\b)[^,]+?)\s+fan\b(?!\s+of)"),
    _rule("likes", "en", r"\bmy\s+(?:all[- ]time\s+|absolute\s+)?favou?rite\s+(?:[\w-]+\s+){0,3}?"
          r"is\s+(?P<obj>.+)"),
    _rule("likes", "en", r"^(?P<obj>.+?)\s+is\s+my\s+(?:all[- ]time\s+)?favou?rite\b"),
    _rule("hobby", "en", r"\bmy\s+(?:favou?rite\s+)?(?:hobby|hobbies|pastime)\s+(?:is|are)\s+"
          r"(?P<obj>.+)"),
    _rule("name", "en", r"\bmy\s+name(?:\s+is|'s)\s+(?P<obj>.+)"),
    _rule("name", "en", rf"{_I_AM}\s+called\s+(?P<obj>.+)"),
    _rule("age", "en", rf"{_I_AM}\s+(?P<obj>\d{{1,3}})(?:\s+years?\s+old|\s*y/?o)\b"),
    _rule("age", "en", r"\bmy\s+age\s+is\s+(?P<obj>\d{1,3})\b"),
    _rule("nickname", "en", r"\bcall\s+me\s+(?!back|later|tomorrow|tonight|when|if|crazy|maybe|"
          r"sometime|now|again|anytime|at\b|on\b|after|before|please|whenever|soon)(?P<obj>.+)"),
    _rule("nickname", "en", rf"{_I}\s+go\s+by\s+(?P<obj>.+)"),
    _rule("job", "en", rf"{_I}\s+(?:currently\s+)?work\s+as\s+(?:an?\s+)?(?P<obj>.+)"),
    _rule("job", "en", r"\bmy\s+(?:job|occupation|profession)\s+is\s+(?:an?\s+)?(?P<obj>.+)"),
    _rule("job", "en", rf"{_I_AM}\s+(?:an?\s+)(?P<obj>(?:[a-z-]+\s+){{0,2}}?(?:{EN_JOBS})s?)\b"),
    _rule("workplace", "en", rf"{_I}\s+(?:currently\s+)?work\s+(?:at|for)\s+(?P<obj>.+)"),
    _rule("home", "en", rf"{_I}\s+(?:currently\s+|now\s+|still\s+)?live\s+in\s+(?P<obj>.+)"),
    _rule("home", "en", rf"{_I_AM}\s+(?:currently\s+|now\s+)?living\s+in\s+(?P<obj>.+)"),
    _rule("home", "en", rf"{_I}\s+(?:just\s+)?moved\s+to\s+(?P<obj>.+)"),
    _rule("origin", "en", rf"{_I_AM}\s+(?:originally\s+)?from\s+(?P<obj>.+)"),
    _rule("origin", "en", rf"{_I}\s+(?:originally\s+)?come\s+from\s+(?P<obj>.+)"),
    _rule("pet", "en", rf"{_I}\s+(?:have|own|got|adopted)\s+(?:an?|one|two|three|four|\d+)\s+"
          rf"(?P<obj>{EN_PETS})(?:\s+(?:named|called)\s+(?P<name>\S+(?:\s+\S+)?))?"),
    _rule("pet", "en", rf"\bmy\s+(?P<obj>{EN_PETS})(?:'s\s+name\s+is|\s+is\s+(?:named|called))"
          r"\s+(?P<name>\S+(?:\s+\S+)?)"),
    _rule("birthday", "en", rf"\bmy\s+(?:birthday|bday|b-day)\s+is\s+(?:on\s+)?"
          rf"(?P<obj>{_EN_DATE})"),
    _rule("birthday", "en", rf"{_I}\s+was\s+born\s+on\s+(?:the\s+)?(?P<obj>{_EN_DATE})"),
    _rule("allergy", "en", rf"{_I_AM}\s+{_EN_ADV}allergic\s+to\s+(?P<obj>.+)"),
    _rule("allergy", "en", rf"{_I}\s+have\s+(?:an?\s+)?(?P<obj>.+?)\s+allergy\b"),
    _rule("allergy", "en", r"\bmy\s+(?P<obj>.+?)\s+allergy\b"),
    _rule("become", "en", rf"{_I}\s+{_EN_ADV}(?:want|hope|plan|wanna|would\s+love|dream)\s+"
          r"(?:to\s+)?(?:become\s+(?:an?\s+)?|be\s+an?\s+)(?P<obj>.+)"),
    _rule("become", "en", rf"{_I_AM}\s+(?:going|gonna|planning|trying|hoping)\s+(?:to\s+)?"
          r"(?:become\s+(?:an?\s+)?|be\s+an?\s+)(?P<obj>.+)"),
    _rule("goal", "en", r"\bmy\s+(?:goal|plan|ambition)\s+is\s+(?:to\s+)?(?P<obj>.+)"),
    _rule("dream", "en", r"\bmy\s+dream\s+is\s+(?:to\s+)?(?P<obj>.+)"),
    _rule(None, "en", rf"{_I}\s+(?P<freq>always|usually|often|never|normally|regularly)\s+"
          r"(?!(?:like|love|liked|loved|hate|hated|enjoy|enjoyed|adore|want|wanted)\b)(?P<obj>.+)"),
    _rule(None, "en", rf"{_I}\s+(?P<obj>(?!(?:{EN_ADVERBS}|like|love|hate)\b).+?)\s+"
          r"(?P<freq>every\s+(?:day|morning|night|evening|week|weekend)|daily)\b"),
    _rule(None, "en", r"^(?P<freq>every\s+(?:day|morning|night|evening|week|weekend))\s+I\s+"
          r"(?P<obj>.+)"),
)  # fmt: skip

_KO_RULES = (
    _rule("dislikes", "ko", r"^(?P<obj>.+?)\s*(?:싫어|싫다|싫음|싫습니다|질색"
          r"|안\s*좋아(?:해|하|함|합)|좋아하지\s*(?:않|안))"),
    _rule("dislikes", "ko", r"싫어하는\s*\S+?\s*(?:은|는)\s*(?P<obj>.+?)" + _KO_COPULA + "$"),
    _rule("likes", "ko", r"^(?P<obj>.+?)\s*(?<!안)(?<!안 )좋아(?:해|함|합니|한다|했|하거|하고"
          r"|하는데|하니까|하지(?!\s*(?:않|안)))"),
    _rule("likes", "ko", r"^(?P<obj>.+?)\s*(?:이|가)?\s*(?:제일|가장|젤)\s*좋아(?!하는)"),
    _rule("likes", "ko", r"좋아하는\s*\S+?\s*(?:은|는)\s*(?P<obj>.+?)" + _KO_COPULA + "$"),
    _rule("likes", "ko", r"최애(?:는|은)?\s*(?P<obj>.+?)" + _KO_COPULA + "$"),
    _rule("likes", "ko", r"^(?P<obj>.+?)에\s*(?:완전\s*|푹\s*|요즘\s*)?빠졌"),
    _rule("age", "ko", r"(?:^|\s)(?P<obj>\d{1,3})\s*살(?:이에요|이야|입니다|이고|임|이|$)"),
    _rule("hobby", "ko", r"취미(?:는|가)\s*(?P<obj>.+?)" + _KO_COPULA + "$"),
    _rule("name", "ko", rf"^(?:(?:{KO_SELF})\s*)?(?:제|내|저의|나의)?\s*이름은\s*(?P<obj>.+?)"
          + _KO_COPULA + "$"),
    _rule("name", "ko", r"^(?:저는|나는|전|난)\s*(?P<obj>\S+?)(?:이)?라고\s*(?:해요|합니다|해|함)"),
    _rule("nickname", "ko", r"(?P<obj>[^\s을를]+?)(?:이)?라고\s*불러"),
    _rule("job", "ko", r"직업(?:은|이)\s*(?P<obj>.+?)" + _KO_COPULA + "$"),
    _rule("job", "ko", rf"(?:^|\s)(?P<obj>(?:\S+\s)?(?:{KO_JOBS}))(?:이에요|예요|이야|야|입니다|임"
          r"|이고|이라서|라서|인데)"),
    _rule("job", "ko", r"^(?:저는|나는|전|난)\s*(?P<obj>\S{2,}(?:원|사|생))"
          r"(?:이에요|예요|이야|입니다)"),
    _rule("job", "ko", r"(?P<obj>\S+?)(?:으로|로)\s*일(?:해|하고|합니다|하는\s*중)"),
    _rule("workplace", "ko", r"^(?P<obj>.+?)\s*에서\s*일(?:해|하고|합니다|하는\s*중)"),
    _rule("home", "ko", r"^(?P<obj>.+?)\s*(?:에|에서)\s*(?:살아|살고|삽니다|살아요|거주)"),
    _rule("origin", "ko", r"^(?P<obj>.+?)\s*출신"),
    _rule("pet", "ko", rf"(?:^|(?<=[\s집]))(?P<obj>{KO_PETS})(?:를|을|도)?\s*"
          r"(?:(?:한|두|세|네|\d+)\s*마리\s*)?(?:키워|키우|키웁|길러|기르)"),
    _rule("pet", "ko", rf"(?:우리|제|내|저희|울)\s*(?:집\s*)?(?P<obj>{KO_PETS})\s*이름(?:은|이)\s*"
          r"(?P<name>\S+?)" + _KO_COPULA + "$"),
    _rule("birthday", "ko", rf"생일(?:은|이)?\s*(?P<obj>{_KO_NUM}\s*월\s*{_KO_NUM}\s*일)"),
    _rule("allergy", "ko", r"(?P<obj>\S+?)\s*(?:알레르기|알러지)(?:가|이)?\s*(?:있|$)"),
    _rule("become", "ko", r"^(?P<obj>.+?)(?:가|이)\s*되고\s*싶"),
    _rule("goal", "ko", r"목표(?:는|가)\s*(?P<obj>.+?)" + _KO_COPULA + "$"),
    _rule("dream", "ko", r"꿈(?:은|이)\s*(?P<obj>.+?)" + _KO_COPULA + "$"),
    _rule(None, "ko", r"(?:^|\s)(?P<freq>매일\s*아침|매일\s*밤|매일|맨날|항상|늘|자주"
          r"|아침마다|밤마다|주말마다|매주)\s+(?P<obj>.+)"),
)  # fmt: skip

_JA_RULES = (
    _rule("dislikes", "ja", rf"^(?P<obj>.+?)(?:が|は|も|のことが|の事が)?(?:{JA_ADVERBS})*"
          r"(?:大嫌い|(?<!大)嫌い|だいきらい|(?<!だい)きらい|苦手|(?:好き|すき)(?:じゃ|では|くない"
          r"|になれない))"),
    _rule("likes", "ja", rf"^(?P<obj>.+?)(?:が|は|も|のことが|の事が)?(?:{JA_ADVERBS})*"
          r"(?:大好き|(?<!大)好き|だいすき|(?<!だい)すき)"
          r"(?!じゃ|では|くな|になれ|な[^んの]|やき|ま)"),
    _rule("likes", "ja", rf"^(?P<obj>.+?)に(?:{JA_ADVERBS})*(?:ハマ|はま)って"),
    _rule("likes", "ja", r"好きな[^はがも]+?(?:は|って)(?P<obj>.+?)" + _JA_COPULA + "$"),
    _rule("likes", "ja", r"推しは(?P<obj>.+?)" + _JA_COPULA + "$"),
    _rule("age", "ja", r"(?:^|は)(?P<obj>\d{1,3})\s*(?:歳|才)"
          r"(?:です|だ|だよ|になりました|になった|$)"),
    _rule("hobby", "ja", r"趣味は(?P<obj>.+?)" + _JA_COPULA + "$"),
    _rule("name", "ja", rf"^(?:(?:{JA_SELF})の)?名前は(?P<obj>.+?)" + _JA_COPULA + "$"),
    _rule("name", "ja", rf"^(?:(?:{JA_SELF})は)?(?P<obj>[^はがも]+?)(?:と申します|って言います"
          r"|っていいます|と言います|といいます)"),
    _rule("nickname", "ja", r"(?P<obj>[^はをがも\s]+?)(?:って|と)呼んで"),
    _rule("job", "ja", r"仕事は(?P<obj>.+?)"
          r"(?:をしています|をしてます|してます|しています|です|だよ|だ)?$"),
    _rule("job", "ja", r"(?P<obj>[^はがもを\s]+?)として働いて"),
    _rule("job", "ja", rf"(?:^|は)(?P<obj>{JA_JOBS})(?:です|だ|をしています|をしてます|やってます"
          r"|をやっています|なんです|なので)"),
    _rule("job", "ja", rf"^(?:{JA_SELF})は(?P<obj>[一-龯]{{1,4}}(?:員|師|士))(?:です|だ)"),
    _rule("workplace", "ja", r"(?P<obj>[^はがもを\s]+?)で働いて"),
    _rule("home", "ja", rf"(?P<obj>[^はがもで\s]+?)に(?:{JA_ADVERBS})*住んで"),
    _rule("home", "ja", r"(?P<obj>[^はがもで\s]+?)在住"),
    _rule("origin", "ja", r"(?P<obj>[^はがもで\s]+?)出身"),
    _rule("pet", "ja", rf"(?P<obj>{JA_PETS})を?(?:(?:\d+|一|二|三|四)(?:匹|頭|羽))?を?飼って"),
    _rule("pet", "ja", rf"(?P<obj>{JA_PETS})の(?P<name>[^をはがも]+?)を飼って"),
    _rule("pet", "ja", rf"(?P<obj>{JA_PETS})の名前は(?P<name>.+?)" + _JA_COPULA + "$"),
    _rule("birthday", "ja", r"誕生日は(?P<obj>\d{1,2}\s*月\s*\d{1,2}\s*日)"),
    _rule("allergy", "ja", r"(?P<obj>[^はがもの\s]+?)アレルギー(?!は(?:な|無)|じゃ|では)"),
    _rule("become", "ja", r"(?P<obj>[^はがもに]+?)になりたい"),
    _rule("goal", "ja", r"目標は(?P<obj>.+?)" + _JA_COPULA + "$"),
    _rule("dream", "ja", r"夢は(?P<obj>.+?)" + _JA_COPULA + "$"),
    _rule(None, "ja", r"(?P<freq>毎日|毎朝|毎晩|いつも|毎週)(?:は)?(?P<obj>.+)"),
)  # fmt: skip

_ZH_RULES = (
    _rule("dislikes", "zh", rf"{ZH_PREFIX}(?:不(?:太|怎么|是很|大)?喜欢|讨厌|不爱|受不了)(?!的)"
          r"(?:吃|喝|玩|看|听)?(?P<obj>.+)"),
    _rule("likes", "zh", rf"{ZH_PREFIX}(?:喜欢|最爱|热爱|超爱|爱|迷上了?)(?!的)(?:吃|喝|玩|看|听)?"
          r"(?P<obj>.+)"),
    _rule("likes", "zh", r"^(?:我)?最喜欢的\S+?是(?P<obj>.+)$"),
    _rule("age", "zh", rf"{ZH_I_PREFIX}(?:今年)?(?P<obj>\d{{1,3}}|[一二三四五六七八九十]{{1,3}})"
          r"(?:岁|周岁)"),
    _rule("hobby", "zh", r"我(?:的|平时的)?(?:兴趣)?爱好(?:是|就是)(?P<obj>.+)"),
    _rule("name", "zh", rf"{ZH_I_PREFIX}(?:叫|名叫)(?!我)(?P<obj>.+)"),
    _rule("name", "zh", r"我的名字(?:是|叫)(?P<obj>.+)"),
    _rule("nickname", "zh", r"(?:^|可以)叫我(?P<obj>.+?)(?:就好|就行|就可以|吧)?$"),
    _rule("job", "zh", r"我是一(?:名|位)(?P<obj>.+)"),
    _rule("job", "zh", r"我是一个(?P<obj>\S*?(?:员|师|生|家|者|工|手))$"),
    _rule("job", "zh", rf"{ZH_PREFIX}是(?P<obj>{ZH_JOBS})$"),
    _rule("job", "zh", r"我的(?:工作|职业)是(?P<obj>.+)"),
    _rule("workplace", "zh", rf"{ZH_I_PREFIX}在(?P<obj>.+?)(?:工作|上班)"),
    _rule("home", "zh", rf"{ZH_I_PREFIX}住在(?P<obj>.+)"),
    _rule("home", "zh", rf"{ZH_I_PREFIX}在(?P<obj>.+?)住"),
    _rule("origin", "zh", rf"{ZH_I_PREFIX}来自(?P<obj>.+)"),
    _rule("origin", "zh", r"^\s*我是(?P<obj>[^一个\s]{2,8}?)人$"),
    _rule("pet", "zh", rf"{ZH_PREFIX}(?:家)?(?:养了|养着|养|有)(?:一|两|三|几|\d+)?(?:只|条|个|头)?"
          rf"(?P<obj>{ZH_PETS})(?:叫(?P<name>.+))?$"),
    _rule("pet", "zh", rf"我(?:家|的)(?:的)?(?P<obj>{ZH_PETS})叫(?P<name>.+)"),
    _rule("birthday", "zh", rf"生日(?:是)?(?P<obj>{_ZH_NUM}\s*月\s*{_ZH_NUM}\s*[日号])"),
    _rule("allergy", "zh", r"对(?P<obj>.+?)(?<!不)过敏"),
    _rule("allergy", "zh", rf"{ZH_PREFIX}(?P<obj>[^对不\s]+?)(?<!不)过敏"),
    _rule("become", "zh", rf"{ZH_PREFIX}(?:想|要|希望|打算|梦想)(?:成为|当|做)(?:一(?:名|个|位))?"
          r"(?P<obj>.+)"),
    _rule("dream", "zh", r"我的梦想是(?P<obj>.+)"),
    _rule("goal", "zh", r"我的目标是(?P<obj>.+)"),
    _rule(None, "zh", rf"{ZH_PREFIX}(?P<freq>每天早上|每天晚上|每天|每晚|每周|总是|经常|常常"
          r"|从不|从来不)(?:都)?(?P<obj>.+)"),
)  # fmt: skip

RULES: tuple[FactRule, ...] = (*_EN_RULES, *_KO_RULES, *_JA_RULES, *_ZH_RULES)

FREQUENCY_WORDS = {
    "always": "always", "usually": "usually", "normally": "usually", "often": "often",
    "regularly": "often", "never": "never", "daily": "every day", "every day": "every day",
    "every morning": "every morning", "every night": "every night",
    "every evening": "every night", "every week": "every week",
    "every weekend": "every weekend",
    "매일": "every day", "맨날": "every day", "항상": "always", "늘": "always", "자주": "often",
    "매일 아침": "every morning", "매일아침": "every morning", "아침마다": "every morning",
    "매일 밤": "every night", "매일밤": "every night", "밤마다": "every night",
    "주말마다": "every weekend", "매주": "every week",
    "毎日": "every day", "毎朝": "every morning", "毎晩": "every night", "いつも": "always",
    "毎週": "every week",
    "每天": "every day", "每天早上": "every morning", "每天晚上": "every night",
    "每晚": "every night", "每周": "every week", "总是": "always", "经常": "often",
    "常常": "often", "从不": "never", "从来不": "never",
}  # fmt: skip
"""Frequency words of every language, mapped to the English frequency of the fact text."""

SOFTENERS = re.compile(
    r"\b(?:don'?t|do\s+not|not|never)\s+really\b|별로|그다지|あまり|そんなに|不太|不怎么|不是很",
    re.IGNORECASE,
)
"""Words that make a (dis)like weaker: "don't really like", "별로 안 좋아해", "不太喜欢"."""
STRONG_WORDS = re.compile(
    rf"\b(?:{EN_STRONG})\b|{KO_STRONG}|大好き|大嫌い|{JA_STRONG}|{ZH_STRONG}", re.IGNORECASE
)
"""Intensifiers: a like said with one of these is a strong like."""
