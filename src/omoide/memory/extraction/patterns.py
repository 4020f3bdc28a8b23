"""Pattern tables for rule-based fact extraction in Korean, Japanese, Chinese and English.

Each :class:`FactRule` is matched against one clause of the viewer's message (NFKC form,
case kept) and names a fact kind (see ``memory.facts.text``). It captures the fact's key
words in a group named ``obj`` (the object, place, job, relation or plan) and may capture
a ``name`` (a pet's or a person's). The rule's ``script`` chooses how captured words are
cleaned; they become the fact's terms, while the fact's text is the viewer's clause.

Rules only fire for statements about the speaker: English rules need "I"/"my"/"me";
Chinese rules are anchored to a clause that starts with 我 (or nothing) and adverbs;
Korean and Japanese, which drop the subject, skip clauses whose subject is someone else
(see ``OTHER_PERSON``) unless the rule is about the viewer's relation to that someone
(``others_ok``: "엄마가 걱정돼요" is the viewer's worry).
"""

from __future__ import annotations

from omoide.memory.extraction.life import LIFE_RULES
from omoide.memory.extraction.syntax import (
    EN_ADV,
    EN_DATE,
    EN_LATELY,
    I_,
    I_AM,
    I_AM_S,
    I_HAVE,
    I_HAVE_S,
    I_S,
    JA_COPULA,
    KO_COPULA,
    KO_NUM,
    OTHER_PERSON,
    SOFTENERS,
    ZH_I_PREFIX,
    ZH_NUM,
    ZH_PREFIX,
    FactRule,
    Script,
    rule,
)
from omoide.memory.extraction.vocab import (
    EN_ADVERBS,
    EN_JOBS,
    EN_PETS,
    EN_PLANS,
    EN_RELATIVES,
    JA_ADVERBS,
    JA_JOBS,
    JA_PETS,
    JA_PLANS,
    JA_RELATIVES,
    JA_SELF,
    KO_JOBS,
    KO_PETS,
    KO_PLANS,
    KO_RELATIVES,
    KO_SELF,
    ZH_JOBS,
    ZH_PETS,
    ZH_PLANS,
    ZH_RELATIVES,
)

_EN_RULES = (
    rule("quit", "en", rf"{I_}\s+{EN_ADV}(?:quit|stopped\s+(?:playing|doing|watching)?|gave\s+up"
          r"(?:\s+on)?|uninstalled|dropped)\s+(?P<obj>.+)"),
    rule("quit", "en", rf"{I_}\s+(?:don'?t|do\s+not)\s+(?:play|do|watch|drink|eat)\s+"
          r"(?P<obj>.+?)\s+(?:anymore|any\s+more)\b"),
    rule("game_now", "en", rf"{I_}\s+(?:only|just)\s+play\s+(?P<obj>.+?)\s+(?:now|these\s+days)"),
    rule("game_now", "en", r"\bnow\s+I\s+(?:only\s+|just\s+)?play\s+(?P<obj>.+)"),
    rule("game_now", "en", rf"(?:{I_AM}|{I_HAVE}\s+been)\s+{EN_ADV}playing\s+(?P<obj>.+?)"
          rf"\s+{EN_LATELY}"),
    rule("limit", "en", rf"{I_}\s+{EN_ADV}(?:can'?t|cannot|can\s+not|don'?t|do\s+not|never)\s+"
          r"(?:eat|drink|have)\s+(?P<obj>.+)"),
    rule("limit", "en", rf"^{EN_ADV}(?:can'?t|cannot|can\s+not)\s+{EN_ADV}(?:eat|drink)\s+"
          r"(?P<obj>.+)"),
    rule("dislike", "en", rf"{I_S}{EN_ADV}(?:(?:do\s+not|don'?t|dont|never|didn'?t)\s+"
          rf"{EN_ADV}(?:liked?|enjoy(?:ed)?|loved?|care\s+for)|hate|dislike|detest|loathe"
          rf"|can'?t\s+stand|cannot\s+stand)\s+(?P<obj>.+)"),
    rule("dislike", "en", rf"{I_AM}\s+not\s+(?:a\s+(?:big\s+|huge\s+)?fan\s+of|{EN_ADV}into)"
          r"\s+(?P<obj>.+)"),
    rule("hooked", "en", rf"(?:{I_AM_S}|{I_}\s+got\s+){EN_ADV}(?:really\s+)?"
          r"(?:into|obsessed\s+with|hooked\s+on|addicted\s+to|crazy\s+about)\s+(?P<obj>.+)"),
    rule("like", "en", rf"{I_}\s+{EN_ADV}(?:love|like|adore|enjoy)\s+(?P<obj>.+)"),
    rule("like", "en", rf"^{EN_ADV}(?:love|adore|enjoy)\s+(?!(?:the|ur|your|how|when|it|that"
          r"|this|u|you)\b)(?P<obj>.+)"),
    rule("like", "en", rf"{I_AM}\s+{EN_ADV}an?\s+(?:big\s+|huge\s+)?fan\s+of\s+(?P<obj>.+)"),
    rule("like", "en", rf"{I_AM}\s+an?\s+(?:huge\s+|big\s+|massive\s+)?"
          r"(?P<obj>(?!(?:huge|big|massive)\b)[^,]+?)\s+fan\b(?!\s+of)"),
    rule("like", "en", r"\bmy\s+(?:all[- ]time\s+|absolute\s+)?favou?rite\s+(?:[\w-]+\s+){0,3}?"
          r"is\s+(?P<obj>.+)"),
    rule("like", "en", r"^(?P<obj>.+?)\s+is\s+my\s+(?:all[- ]time\s+)?favou?rite\b"),
    rule("hobby", "en", r"\bmy\s+(?:favou?rite\s+)?(?:hobby|hobbies|pastime)\s+(?:is|are)\s+"
          r"(?P<obj>.+)"),
    rule("name", "en", r"\bmy\s+name(?:\s+is|'s)\s+(?P<obj>.+)"),
    rule("name", "en", rf"{I_AM}\s+called\s+(?P<obj>.+)"),
    rule("age", "en", rf"{I_AM}\s+(?P<obj>\d{{1,3}})(?:\s+years?\s+old|\s*y/?o)\b"),
    rule("age", "en", rf"{I_}\s+(?:just\s+)?turned\s+(?P<obj>\d{{1,3}})\b"),
    rule("nickname", "en", r"\b(?:just\s+|please\s+)?call\s+me\s+(?!back|later|tomorrow|tonight"
          r"|when|if|crazy|maybe|sometime|now|again|anytime|at\b|on\b|after|before|please"
          r"|whenever|soon|out|up)(?P<obj>.+)"),
    rule("nickname", "en", rf"{I_}\s+go\s+by\s+(?P<obj>.+)"),
    rule("style", "en", r"\b(?P<obj>(?:talk|speak|chat)\s+(?:to\s+me\s+)?(?:casually|informally"
          r"|normally)|(?:keep|make)\s+(?:it|your\s+(?:replies|answers))\s+short|short\s+"
          r"(?:replies|answers)|(?:no\s+need\s+to|don'?t)\s+be\s+(?:so\s+)?formal"
          r"|drop\s+the\s+formalities)"),
    rule("job", "en", rf"{I_}\s+(?:currently\s+)?work\s+as\s+(?:an?\s+)?(?P<obj>.+)"),
    rule("job", "en", r"\bmy\s+(?:job|occupation|profession)\s+is\s+(?:an?\s+)?(?P<obj>.+)"),
    rule("job", "en", rf"{I_AM}\s+(?:an?\s+)(?P<obj>(?:[a-z-]+\s+){{0,2}}?(?:{EN_JOBS})s?)\b"),
    rule("workplace", "en", rf"{I_}\s+{EN_ADV}(?:currently\s+)?work\s+(?:(?:night|day|late"
          r"|early|double|weekend|morning)\s+shifts?\s+|nights\s+|weekends\s+|part[- ]time\s+"
          r"|full[- ]time\s+)?(?:at|for|in(?=\s+an?\s))\s+(?P<obj>.+)"),
    rule("school", "en", rf"{I_}\s+(?:go\s+to|attend|study\s+at|am\s+studying\s+at)\s+"
          r"(?P<obj>.+?(?:university|college|school|uni|academy|institute)\b|[A-Z]\w*\s+(?:U"
                r"|Uni)\b)"),
    rule("school", "en", rf"{I_AM_S}(?:a\s+)?(?:freshman|sophomore|junior|senior|student"
          r"|(?:first|second|third|final)[- ]year)\s+(?:student\s+)?(?:at|in)\s+(?P<obj>.+)"),
    rule("school", "en", rf"{I_AM_S}{EN_ADV}(?:majoring|studying)\s+(?P<obj>\w+(?:\s+\w+)?)"
          r"\s+(?:at|in)\s+(?:college|uni|university|school)\b"),
    rule("home", "en", rf"{I_}\s+(?:currently\s+|now\s+|still\s+)?live\s+in\s+(?P<obj>.+)"),
    rule("home", "en", rf"{I_AM_S}(?:currently\s+|now\s+)?(?:living|based)\s+in\s+(?P<obj>.+)"),
    rule("home", "en", rf"(?:{I_HAVE_S}|{I_S})(?:just\s+|finally\s+|recently\s+)?moved\s+"
          r"(?:to|into)\s+(?P<obj>.+)"),
    rule("hometown", "en", rf"{I_AM}\s+(?:originally\s+)?from\s+(?P<obj>.+)"),
    rule("hometown", "en", r"^originally\s+from\s+(?P<obj>.+)"),
    rule("hometown", "en", rf"{I_}\s+(?:originally\s+)?come\s+from\s+(?P<obj>.+)"),
    rule("hometown", "en", rf"{I_}\s+grew\s+up\s+in\s+(?P<obj>.+)"),
    rule("pet", "en", rf"(?:{I_}|{I_HAVE})\s+{EN_ADV}(?:have|own|got|adopted|rescued)\s+(?:an?|one"
          rf"|two|three|four|\d+)\s+(?:(?:little|old|new|baby|rescue)\s+)?(?P<obj>{EN_PETS})"
          r"(?:\s*,?\s+(?:named|called)\s+(?P<name>\S+(?:\s+\S+)?))?"),
    rule("pet", "en", rf"\bmy\s+(?P<obj>{EN_PETS})(?:'s\s+name\s+is|\s+is\s+(?:named|called)"
          r"|,?\s+(?=\w+\s*,))\s*(?P<name>\S+(?:\s+\S+)?)"),
    rule("person", "en", rf"\bmy\s+(?:little\s+|big\s+|older\s+|younger\s+|best\s+|baby\s+)?"
          rf"(?P<obj>{EN_RELATIVES})(?:'s\s+name\s+is|\s+is\s+(?:named|called))\s+"
          r"(?P<name>\S+(?:\s+\S+)?)"),
    rule("person", "en", rf"(?:{I_}|{I_HAVE})\s+(?:have|got)\s+(?:an?|one|two|three|\d+)\s+"
          rf"(?:little\s+|big\s+|older\s+|younger\s+|twin\s+)?(?P<obj>{EN_RELATIVES})s?\b"
          r"(?:\s*,?\s+(?:named|called)\s+(?P<name>\S+))?"),
    rule("birthday", "en", rf"\bmy\s+(?:birthday|bday|b-day)(?:\s+is|'s|s)\s+(?:on\s+)?"
          rf"(?P<obj>{EN_DATE})"),
    rule("birthday", "en", rf"{I_}\s+was\s+born\s+on\s+(?:the\s+)?(?P<obj>{EN_DATE})"),
    rule("allergy", "en", rf"{I_AM_S}{EN_ADV}allergic\s+to\s+(?P<obj>.+)"),
    rule("allergy", "en", rf"{I_}\s+have\s+(?:an?\s+)?(?P<obj>.+?)\s+allergy\b"),
    rule("allergy", "en", r"\bmy\s+(?P<obj>.+?)\s+allergy\b"),
    rule("diet", "en", rf"{I_AM_S}(?:a\s+|on\s+a\s+|going\s+)?(?P<obj>vegetarian|vegan"
          r"|pescatarian|diet|keto|gluten[- ]free|lactose\s+intolerant)\b"),
    rule("health", "en", rf"{I_}\s+(?:have|suffer\s+from|was\s+diagnosed\s+with)\s+(?P<obj>asthma"
          r"|diabetes|anxiety|depression|adhd|insomnia|migraines?|a\s+cold|the\s+flu|covid"
          r"|back\s+pain|a\s+bad\s+back|celiac(?:\s+disease)?)\b"),
    rule("health", "en", r"\bmy\s+(?P<obj>back|knee|knees|neck|shoulder|wrist|head|stomach)\s+"
          r"(?:hurts|is\s+killing\s+me|has\s+been\s+hurting)"),
    rule("plan", "en", rf"(?:{I_}|\bwe)\b.*?\b(?P<obj>mov(?:e|ing))\s+(?:to|into)\s+(?P<name>.+)"),
    rule("plan", "en", rf"(?:{I_}|\bmy\b|\bwe\b|\bour\b).*?\b(?P<obj>{EN_PLANS})s?\b"),
    rule("plan", "en", rf"^(?:[\w'-]+\s+){{0,3}}?(?P<obj>{EN_PLANS})s?\b"
          r"(?!.*\b(?:you|your|ur|u|he|she|they|his|her|their|stream)\b)"),
    rule("situation", "en", rf"{I_AM_S}{EN_ADV}(?:so\s+|really\s+|kinda\s+)?"
          r"(?:worried|anxious|stressed(?:\s+out)?|nervous|sad|upset)\s+(?:about|for|because\s+of)"
          r"\s+(?P<obj>.+)"),
    rule("situation", "en", rf"{I_AM_S}{EN_ADV}(?:so\s+|really\s+)?"
          r"(?:tired|exhausted|drained|burn(?:ed|t)\s+out|busy|swamped)\s+(?:from|with"
          r"|because\s+of)\s+(?P<obj>.+)"),
    rule("goal", "en", rf"{I_}\s+{EN_ADV}(?:want|hope|plan|wanna|would\s+love|dream)\s+"
          r"(?:to\s+)?(?:become\s+(?:an?\s+)?|be\s+an?\s+)(?P<obj>.+)"),
    rule("goal", "en", rf"{I_AM}\s+(?:going|gonna|planning|trying|hoping)\s+(?:to\s+)?"
          r"(?:become\s+(?:an?\s+)?|be\s+an?\s+)(?P<obj>.+)"),
    rule("goal", "en", r"\bmy\s+(?:goal|ambition|dream)\s+is\s+(?:to\s+)?(?P<obj>.+)"),
    rule("habit", "en", rf"{I_}\s+(?:always|usually|often|normally|regularly|never)\s+"
          r"(?!(?:like|love|liked|loved|hate|hated|enjoy|enjoyed|adore|want|wanted)\b)(?P<obj>.+)"),
    rule("habit", "en", rf"{I_}\s+(?P<obj>(?!(?:{EN_ADVERBS}|like|love|hate)\b).+?)\s+"
          r"(?:every\s+(?:single\s+)?(?:day|morning|night|evening|week|weekend)|daily|nightly)\b"),
    rule("habit", "en", r"^(?:every\s+(?:day|morning|night|evening|week|weekend))\s+I\s+"
          r"(?P<obj>.+)"),
)  # fmt: skip

_KO_LIKE_END = r"(?:해|함|합니|한다|했|하거|하고|하는데|하니까|하지(?!\s*(?:않|안)))"
_KO_RULES = (
    rule("quit", "ko", r"^(?P<obj>.+?)\s*(?:은|는|을|를)?\s*(?:이제\s*)?(?:접었|접음|끊었|끊음"
          r"|그만뒀|그만\s*뒀|그만했|탈덕|안\s*해요\s*이제|졸업했)"),
    rule("game_now", "ko", r"(?:이제|요즘은?|요새는?|지금은)\s*(?P<obj>\S+?)만\s*(?:해|함|하고|한다"
          r"|합니다|하는\s*중|플레이)"),
    rule("limit", "ko", r"^(?P<obj>.+?)\s*(?:은|는|을|를)?\s*(?:안|못)\s*(?:마셔|마시|마십|먹어|먹"
          r"|먹습|드세)"),
    rule("dislike", "ko", r"^(?P<obj>.+?)\s*(?:싫어|싫다|싫음|싫습니다|질색|안\s*좋아(?:해|하|함"
          r"|합)"
          r"|좋아하지\s*(?:않|안))"),
    rule("dislike", "ko", r"싫어하는\s*\S+?\s*(?:은|는)\s*(?P<obj>.+?)" + KO_COPULA + "$"),
    rule("hooked", "ko", r"^(?P<obj>.+?)에\s*(?:완전\s*|푹\s*|요즘\s*|진짜\s*|너무\s*)?(?:빠졌"
          r"|빠져"
          r"|꽂혔|중독)"),
    rule("like", "ko", r"^(?P<obj>.+?)\s*(?<!안)(?<!안 )좋아" + _KO_LIKE_END),
    rule("like", "ko", r"^(?P<obj>.+?)\s*(?:이|가)?\s*(?:제일|가장|젤)\s*좋아(?!하는)"),
    rule("like", "ko", r"좋아하는\s*\S+?\s*(?:은|는)\s*(?P<obj>.+?)" + KO_COPULA + "$"),
    rule("like", "ko", r"최애(?:는|은)?\s*(?P<obj>.+?)" + KO_COPULA + "$"),
    rule("age", "ko", r"(?:^|\s)(?P<obj>\d{1,3})\s*살(?:이에요|이야|입니다|이고|임|이|$)"),
    rule("hobby", "ko", r"취미(?:는|가)\s*(?P<obj>.+?)" + KO_COPULA + "$"),
    rule("name", "ko", rf"^(?:(?:{KO_SELF})\s*)?(?:제|내|저의|나의)?\s*이름은\s*(?P<obj>.+?)"
          + KO_COPULA + "$"),
    rule("name", "ko", r"^(?:저는|나는|전|난)\s*(?P<obj>\S+?)(?:이)?라고\s*(?:해요|합니다|해|함)"),
    rule("nickname", "ko", r"(?P<obj>[^\s을를]+?)(?:이)?라고\s*불러"),
    rule("style", "ko", r"(?P<obj>반말(?:로)?\s*(?:해|써|하셔|하세요|편하게|괜찮|해도)"
          r"|말\s*(?:편하게"
          r"|놓아|놔)|짧게\s*(?:말해|대답|답|얘기)|존댓말\s*(?:안|말고|하지))", others_ok=True),
    rule("job", "ko", r"직업(?:은|이)\s*(?P<obj>.+?)" + KO_COPULA + "$"),
    rule("job", "ko", rf"(?:^|\s)(?P<obj>(?:\S+\s)?(?:{KO_JOBS}))(?:이에요|예요|이야|야|입니다|임"
          r"|이고|이라서|라서|인데)"),
    rule("job", "ko", r"^(?:저는|나는|전|난)\s*(?P<obj>\S{2,}(?:원|사|생))"
          r"(?:이에요|예요|이야|입니다)"),
    rule("job", "ko", r"(?P<obj>\S+?)(?:으로|로)\s*일(?:해|하고|합니다|하는\s*중)"),
    rule("workplace", "ko", r"^(?P<obj>.+?)\s*에서\s*일(?:해|하고|합니다|하는\s*중)"),
    rule("school", "ko", r"(?P<obj>\S+(?:대학교|대학|고등학교|중학교|학교|대|고))\s*(?:에\s*)?"
          r"(?:다녀|다니고|다닙|재학|학생|다니는)"),
    rule("home", "ko", r"^(?P<obj>.+?)\s*(?:에|에서)\s*(?:살아|살고|삽니다|살아요|거주|자취)"),
    rule("home", "ko", r"^(?P<obj>.+?)(?:으로|로)\s*이사\s*(?:왔|했|온|완료)"),
    rule("hometown", "ko", r"^(?P<obj>.+?)\s*출신"),
    rule("hometown", "ko", r"고향(?:은|이)\s*(?P<obj>.+?)" + KO_COPULA + "$"),
    rule("pet", "ko", rf"(?:^|(?<=[\s집]))(?P<obj>{KO_PETS})(?:를|을|도)?\s*"
          r"(?:(?:한|두|세|네|\d+)\s*마리\s*)?(?:키워|키우|키웁|길러|기르)"),
    rule("pet", "ko", rf"(?:우리|제|내|저희|울)\s*(?:집\s*)?(?P<obj>{KO_PETS})[,\s]*(?:이름(?:은"
          rf"|이)"
          r"\s*)?(?P<name>\S+?)(?:이)?(?:에요|예요|이야|야|입니다|라고\s*해요?|이라고\s*해요?)$",
          others_ok=True),
    rule("person", "ko", rf"(?:우리|제|내|저희|울)\s*(?P<obj>{KO_RELATIVES})\s*이름(?:은|이)\s*"
          r"(?P<name>\S+?)" + KO_COPULA + "$", others_ok=True),
    rule("person", "ko", rf"(?:^|\s)(?P<obj>{KO_RELATIVES})(?:이|가)\s*(?:한\s*명|두\s*명|하나|둘"
          r"|있)\s*(?:있)?(?:어|어요|습니다|음|는데)", others_ok=True),
    rule("birthday", "ko", rf"^(?:제|내|저의|나의)?\s*생일(?:은|이)?\s*"
          rf"(?P<obj>{KO_NUM}\s*월\s*{KO_NUM}\s*일)"),
    rule("allergy", "ko", r"(?P<obj>\S+?)\s*(?:알레르기|알러지)(?:가|이|도)?\s*(?:있|$|라서|예요"
          r"|에요)"),
    rule("diet", "ko", r"(?P<obj>채식주의자|비건|채식|다이어트|식단\s*관리)\s*(?:중|이에요|예요"
          r"|해요"
          r"|하고|입니다|이야|야|라서|인데|하는)"),
    rule("health", "ko", r"^(?P<obj>허리|무릎|목|어깨|손목|머리|배|위|이|눈)(?:가"
          r"|이)\s*(?:계속\s*|요즘"
          r"\s*|너무\s*)*(?:아파|아프|안\s*좋)"),
    rule("plan", "ko", r"(?P<name>\S+?)(?:으로|로)\s*(?P<obj>이사)"),
    rule("plan", "ko", rf"(?P<obj>{KO_PLANS})"),
    rule("situation", "ko", r"^(?P<obj>.+?)(?:가|이|이랑|때문에|땜에|문제로|일로)\s*(?:너무\s*"
          r"|좀\s*"
          r"|진짜\s*|많이\s*)?(?:걱정|스트레스|신경\s*쓰)", others_ok=True),
    rule("situation", "ko", r"^(?P<obj>.+?)\s*(?:너무|진짜|좀|많이|정말)?\s*걱정(?:돼|되"
          r"|이에요|이야|입니다|이|스러)", others_ok=True),
    rule("situation", "ko", r"^(?P<obj>.+?)(?:때문에|땜에|하느라|해서|어서|아서)\s*(?:요즘\s*"
          r"|너무\s*"
          r"|진짜\s*|완전\s*|좀\s*)*(?:피곤|힘들|지쳐|지쳤|죽겠|바빠|바쁘|우울)"),
    rule("goal", "ko", r"^(?P<obj>.+?)(?:가|이)\s*되고\s*싶"),
    rule("goal", "ko", r"(?:목표|꿈)(?:는|가|은|이)\s*(?P<obj>.+?)" + KO_COPULA + "$"),
    rule("habit", "ko", r"(?:^|\s)(?:매일\s*아침|매일\s*밤|매일|맨날|항상|늘|자주|아침마다|밤마다"
          r"|주말마다|매주|퇴근하고|퇴근\s*후에?)\s+(?P<obj>.+)"),
)  # fmt: skip

_JA_NOT_LIKE = r"(?!じゃ|では|くな|になれ|な[^んの]|やき|ま)"
_JA_RULES = (
    rule("quit", "ja", r"^(?P<obj>.+?)(?:は|を|も)?(?:もう)?(?:やめた|辞めた|やめました|辞めました"
          r"|引退した|卒業した)"),
    rule("game_now", "ja", r"(?:今は|最近は)(?P<obj>[^はがもを\s]+?)(?:だけ|しか)(?:やって|して"
          r"|プレイ)"),
    rule("limit", "ja", r"^(?P<obj>.+?)(?:は|が|を|も)?(?:飲めない|飲めません|食べられない"
          r"|食べれない|食べられません|飲まない|飲みません|ダメなんです|だめなんです)"),
    rule("dislike", "ja", rf"^(?P<obj>.+?)(?:が|は|も|のことが|の事が)?(?:{JA_ADVERBS})*"
          r"(?:大嫌い|(?<!大)嫌い|だいきらい|(?<!だい)きらい|苦手|(?:好き|すき)(?:じゃ|では|くない"
          r"|になれない))"),
    rule("hooked", "ja", rf"^(?P<obj>.+?)に(?:{JA_ADVERBS})*(?:ハマ|はま)って"),
    rule("game_now", "ja", r"(?:今は|最近は?)(?P<obj>[^はがもを、\s]+?)一筋"),
    rule("game_now", "ja", r"(?:最近|今)(?P<obj>[^はがもを、\s]+?)(?:を|ばっかり|ばっか|ばかり)?"
          r"(?:やってる|やってます|プレイしてる|プレイしてます)"),
    rule("like", "ja", rf"^(?P<obj>.+?)(?:が|は|も|のことが|の事が)?(?:{JA_ADVERBS})*"
          r"(?:大好き|(?<!大)好き|だいすき|(?<!だい)すき)" + _JA_NOT_LIKE),
    rule("like", "ja", r"好きな[^はがも]+?(?:は|って)(?P<obj>.+?)" + JA_COPULA + "$"),
    rule("like", "ja", r"推しは(?P<obj>.+?)" + JA_COPULA + "$"),
    rule("age", "ja", r"(?:^|は)(?P<obj>\d{1,3})\s*(?:歳|才)"
          r"(?:です|だ|だよ|になりました|になった|$)"),
    rule("hobby", "ja", r"趣味は(?P<obj>.+?)" + JA_COPULA + "$"),
    rule("name", "ja", rf"^(?:(?:{JA_SELF})の)?名前は(?P<obj>.+?)" + JA_COPULA + "$"),
    rule("name", "ja", rf"^(?:(?:{JA_SELF})は)?(?P<obj>[^はがも]+?)(?:と申します|って言います"
          r"|っていいます|と言います|といいます)"),
    rule("nickname", "ja", r"(?:.*(?:のことは|のことを)|^)(?P<obj>[^\s、]+?)(?:って|と)呼んで"),
    rule("style", "ja", r"(?P<obj>タメ口|タメで|ため口|敬語(?:は|じゃなくて|なしで|やめて|いらない"
          r"|使わなくて)|短く(?:答え|返して|話して|して))", others_ok=True),
    rule("job", "ja", r"仕事は(?P<obj>.+?)"
          r"(?:をしています|をしてます|してます|しています|です|だよ|だ)?$"),
    rule("job", "ja", r"(?P<obj>[^はがもを\s]+?)として働いて"),
    rule("job", "ja", rf"(?:^|は)(?P<obj>{JA_JOBS})(?:です|だ|をしています|をしてます|やってます"
          r"|をやっています|なんです|なので|してます)"),
    rule("job", "ja", rf"^(?:{JA_SELF})は(?P<obj>[一-龯]{{1,4}}(?:員|師|士))(?:です|だ)"),
    rule("workplace", "ja", r"(?P<obj>[^はがもを\s]+?)で働いて"),
    rule("school", "ja", r"(?P<obj>[^はがもを\s]+?(?:大学|高校|中学|専門学校|学校))(?:に通って"
          r"|の学生|生です|に在学|の(?:\d|一|二|三|四)年)"),
    rule("home", "ja", rf"(?P<obj>[^はがもで\s]+?)に(?:{JA_ADVERBS})*住んで"),
    rule("home", "ja", r"(?P<obj>[^はがもで\s]+?)在住"),
    rule("home", "ja", r"(?P<obj>[^はがもで\s]+?)に引っ(?:越し|こし)(?:た|ました|てきた)"),
    rule("hometown", "ja", r"(?P<obj>[^はがもで\s]+?)出身"),
    rule("pet", "ja", rf"(?P<obj>{JA_PETS})を?(?:(?:\d+|一|二|三|四)(?:匹|頭|羽))?を?飼って"),
    rule("pet", "ja", rf"(?P<obj>{JA_PETS})の(?P<name>[^をはがも]+?)を飼って"),
    rule("pet", "ja", rf"(?P<obj>{JA_PETS})(?:は|の名前は)?[、,\s]*(?P<name>[^、,\s]+?)"
          r"(?:って|という|と言う)(?:名前|子)", others_ok=True),
    rule("pet", "ja", rf"(?P<obj>{JA_PETS})の名前は(?P<name>.+?)" + JA_COPULA + "$"),
    rule("person", "ja", rf"(?:うちの|私の|僕の|俺の)?(?P<obj>{JA_RELATIVES})(?:の名前)?は"
          r"(?P<name>[^はがも\s]+?)(?:って|と|という)(?:名前|言い|いい)", others_ok=True),
    rule("person", "ja", rf"(?P<obj>{JA_RELATIVES})が(?:一人|二人|ひとり|ふたり|\d人)?"
          r"(?:いる|います|いて)", others_ok=True),
    rule("birthday", "ja", r"^(?:(?:私|僕|俺)の)?誕生日は(?P<obj>\d{1,2}\s*月\s*\d{1,2}\s*日)"),
    rule("allergy", "ja", r"(?P<obj>[^はがもの\s]+?)アレルギー(?!は(?:な|無)|じゃ|では)"),
    rule("diet", "ja", r"(?P<obj>ベジタリアン|ヴィーガン|ビーガン|ダイエット|菜食)(?:中|です|だ"
          r"|してる|しています|なので|なんです)"),
    rule("health", "ja", r"(?P<obj>腰|膝|首|肩|頭|お腹|胃|歯|喉)が(?:ずっと|最近)?痛(?:い|くて)"),
    rule("plan", "ja", r"(?P<name>[^はがもで\s]+?)に(?P<obj>引っ越し|引越し|引っ越す|引っ越)"),
    rule("plan", "ja", rf"(?P<obj>{JA_PLANS})"),
    rule("situation", "ja", r"^(?P<obj>.+?)(?:が|のことが|の事が|で)(?:すごく|めっちゃ|ちょっと)?"
          r"(?:心配|不安|ストレス)", others_ok=True),
    rule("situation", "ja", r"^(?P<obj>.+?)(?:で|のせいで|続きで|ばかりで)(?:すごく|めっちゃ|毎日"
          r"|もう)?(?:疲れ|しんど|つら|辛|クタクタ|ヘトヘト)"),
    rule("goal", "ja", r"(?P<obj>[^はがもに]+?)になりたい"),
    rule("goal", "ja", r"(?:目標|夢)は(?P<obj>.+?)" + JA_COPULA + "$"),
    rule("habit", "ja", r"(?:毎日|毎朝|毎晩|いつも|毎週|仕事終わりに|寝る前に)(?:は)?(?P<obj>.+)"),
)  # fmt: skip

_ZH_RULES = (
    rule("quit", "zh", rf"{ZH_PREFIX}(?:已经)?不(?:再)?(?:玩|看|喝|吃)(?P<obj>.+?)了"),
    rule("quit", "zh", rf"{ZH_PREFIX}(?:已经)?(?:戒了|退坑了?|弃坑了?|卸载了)(?P<obj>.+)"),
    rule("quit", "zh", r"^(?P<obj>.+?)(?:我)?(?:已经)?(?:戒了|退坑了|弃坑了|不玩了)"),
    rule("game_now", "zh", rf"{ZH_PREFIX}(?:只玩|在玩|天天玩|每天玩)(?P<obj>.+)"),
    rule("limit", "zh", rf"{ZH_PREFIX}(?:不能|不敢|不|从不|从来不)(?:吃|喝)(?P<obj>.+)"),
    rule("limit", "zh", r"^(?P<obj>.+?)(?:我)?(?:不能|不敢)(?:吃|喝)"),
    rule("dislike", "zh", rf"{ZH_PREFIX}(?:不(?:太|怎么|是很|大)?喜欢|讨厌|不爱|受不了)(?!的)"
          r"(?:吃|喝|玩|看|听)?(?P<obj>.+)"),
    rule("hooked", "zh", rf"{ZH_PREFIX}(?:迷上了?|沉迷(?:于)?|爱上了)(?P<obj>.+)"),
    rule("like", "zh", rf"{ZH_PREFIX}(?:喜欢|最爱|热爱|超爱|爱)(?!的)(?:吃|喝|玩|看|听)?"
          r"(?P<obj>.+)"),
    rule("like", "zh", r"^(?:我)?最喜欢的\S+?是(?P<obj>.+)$"),
    rule("age", "zh", rf"{ZH_I_PREFIX}(?:今年)?(?P<obj>\d{{1,3}}|[一二三四五六七八九十]{{1,3}})"
          r"(?:岁|周岁)"),
    rule("hobby", "zh", r"我(?:的|平时的)?(?:兴趣)?爱好(?:是|就是)(?P<obj>.+)"),
    rule("name", "zh", rf"{ZH_I_PREFIX}(?:叫|名叫)(?!我)(?P<obj>.+)"),
    rule("name", "zh", r"我的名字(?:是|叫)(?P<obj>.+)"),
    rule("nickname", "zh", r"(?:^|可以|就|能)叫我(?P<obj>.+?)(?:就好|就行|就可以|吧|吗|嘛)?$"),
    rule("style", "zh", r"(?P<obj>说话随意|随便(?:点|一点)说|不用(?:那么|这么)?(?:客气|正式|敬语)"
          r"|(?:回答|回复|说话)?(?:简短|短)(?:一)?点)"),
    rule("job", "zh", r"我是一(?:名|位)(?P<obj>.+)"),
    rule("job", "zh", r"我是一个(?P<obj>\S*?(?:员|师|生|家|者|工|手))$"),
    rule("job", "zh", rf"{ZH_PREFIX}是(?P<obj>{ZH_JOBS})$"),
    rule("job", "zh", r"我的(?:工作|职业)是(?P<obj>.+)"),
    rule("job", "zh", rf"{ZH_I_PREFIX}(?:做|当|干)(?P<obj>\S{{1,8}}?)(?:的)?(?:工作)?$"),
    rule("workplace", "zh", rf"{ZH_I_PREFIX}在(?P<obj>.+?)(?:工作|上班)"),
    rule("school", "zh", rf"{ZH_I_PREFIX}在(?P<obj>\S+?(?:大学|高中|中学|学校|学院))(?:上学|读书"
          r"|念书|读|上)"),
    rule("school", "zh", r"我是(?P<obj>\S+?(?:大学|高中|中学|学院))的"),
    rule("home", "zh", rf"{ZH_I_PREFIX}住在(?P<obj>.+)"),
    rule("home", "zh", rf"{ZH_I_PREFIX}在(?P<obj>.+?)住"),
    rule("home", "zh", rf"{ZH_I_PREFIX}(?:已经|刚)?搬到(?:了)?(?P<obj>.+?)了"),
    rule("hometown", "zh", rf"{ZH_I_PREFIX}来自(?P<obj>.+)"),
    rule("hometown", "zh", r"^\s*我是(?P<obj>[^一个\s]{2,8}?)人$"),
    rule("hometown", "zh", r"我(?:的)?老家(?:是|在)(?P<obj>.+)"),
    rule("pet", "zh", rf"{ZH_PREFIX}(?:家)?(?:养了|养着|养|有)(?:一|两|三|几|\d+)?(?:只|条|个|头)?"
          rf"(?P<obj>{ZH_PETS})(?:(?:，|,)?叫(?P<name>.+?))?[啊呀哦呢吧啦嘛了]*$"),
    rule("pet", "zh", rf"我(?:家|的)(?:的)?(?P<obj>{ZH_PETS})叫(?P<name>.+)"),
    rule("person", "zh", rf"我(?:的|家)?(?P<obj>{ZH_RELATIVES})(?:的名字)?叫(?P<name>.+)"),
    rule("person", "zh", rf"我有(?:一个|个|两个|一位)?(?P<obj>{ZH_RELATIVES})"),
    rule("birthday", "zh", rf"(?:^|我的?)生日(?:是)?(?P<obj>{ZH_NUM}\s*月\s*{ZH_NUM}\s*[日号])"),
    rule("allergy", "zh", r"对(?P<obj>.+?)(?<!不)过敏"),
    rule("allergy", "zh", rf"{ZH_PREFIX}(?P<obj>[^对不\s]+?)(?<!不)过敏"),
    rule("diet", "zh", rf"{ZH_PREFIX}(?:在)?(?P<obj>吃素|素食主义者|减肥|节食|戒糖)"),
    rule("health", "zh", rf"{ZH_PREFIX}(?:有)?(?P<obj>腰|膝盖|脖子|肩膀|头|胃|牙|嗓子)(?:一直"
          rf"|老是)?"
          r"(?:疼|痛|不好)"),
    rule("health", "zh", rf"{ZH_I_PREFIX}有(?P<obj>哮喘|糖尿病|失眠|焦虑症|抑郁症|胃病|鼻炎)"),
    rule("plan", "zh", r"(?P<obj>搬到|搬去)(?P<name>.+)"),
    rule("plan", "zh", rf"(?P<obj>{ZH_PLANS})"),
    rule("situation", "zh", rf"{ZH_PREFIX}(?:很|好|特别|有点)?(?:担心|放心不下|操心)(?P<obj>.+)"),
    rule("situation", "zh", r"^(?:最近|这几天|这阵子|一直)(?:因为)?(?P<obj>.+?)(?:所以|搞得|弄得)?"
          r"(?:我)?(?:好|很|特别|超|太)?(?:累|疲惫|压力(?:好|很|特别)?大|焦虑)"),
    rule("situation", "zh", r"因为(?P<obj>.+?)(?:所以|搞得|弄得)?(?:我)?(?:好|很|特别|超|太)?"
          r"(?:累|疲惫|压力(?:好|很|特别)?大|焦虑)"),
    rule("situation", "zh", r"(?P<obj>加班|工作|学习|考试|带孩子)(?:太多|好多|多)?(?:，|,)?"
          r"(?:我)?(?:好|很|特别|超|太)?(?:累|疲惫|压力(?:好|很|特别)?大)"),
    rule("goal", "zh", rf"{ZH_PREFIX}(?:想|要|希望|打算|梦想)(?:成为|当|做)(?:一(?:名|个|位))?"
          r"(?P<obj>.+)"),
    rule("goal", "zh", r"我的(?:梦想|目标)是(?P<obj>.+)"),
    rule("habit", "zh", rf"{ZH_PREFIX}(?:每天早上|每天晚上|每天|每晚|每周|总是|经常|常常|从不"
          r"|从来不|下班后)(?:都)?(?P<obj>.+)"),
)  # fmt: skip

RULES: tuple[FactRule, ...] = (*_EN_RULES, *_KO_RULES, *_JA_RULES, *_ZH_RULES, *LIFE_RULES)

__all__ = ["OTHER_PERSON", "RULES", "SOFTENERS", "FactRule", "Script"]
