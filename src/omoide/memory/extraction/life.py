"""Fact rules for things a viewer mentions in passing, in Korean, Japanese, Chinese and English.

The main tables (``memory.extraction.patterns``) read statements made for their own sake
("I have a dog named Max"). These read the same facts said on the way to something else:

* a pet or a person named without a verb ("my beagle Biscuit just ate a sock",
  "동생 이름 Jacob이에요", "柴犬、こてつって言うんだけど", "我自己家那只黑猫叫煤球");
* a family member's illness or hospital stay (kind ``care``, keyed by the relation);
* fears and phobias (kind ``fear``), breakups (the partner's slot, kind ``breakup``);
* habits started or quit ("戒烟", "금연 중", "筋トレ始めた", "took up climbing");
* a move stated with its reason ("대전으로 발령 나서 이사했어요", "we moved to Seattle for ..."),
  or told by the time since arriving ("광주 와서 첫주", "福岡来て一週間", "来成都一个月了",
  "first week in portland"): where the viewer lives now;
* a favourite said by the hours put in ("600 hours in Stardew Valley") or a shop opened.

Each rule is a :class:`~omoide.memory.extraction.syntax.FactRule`; they are tried after
the main tables' rules of the same kind.
"""

from __future__ import annotations

from omoide.memory.extraction.syntax import (
    EN_ADV,
    I_,
    I_AM,
    I_HAVE,
    ZH_PREFIX,
    FactRule,
    rule,
)
from omoide.memory.extraction.vocab import (
    EN_PETS,
    EN_RELATIVES,
    JA_ADVERBS,
    JA_PETS,
    JA_RELATIVES,
    KO_PETS,
    KO_RELATIVES,
    ZH_PETS,
    ZH_RELATIVES,
)

_EN_CAPITAL = r"(?-i:[A-Z][a-z][\w'-]*)"
_EN_NAME = rf"(?P<name>{_EN_CAPITAL})"
_EN_LOWER_NAME = (
    r"(?!(?:just|is|was|has|had|and|who|that|keeps|always|never|still|also|got"
    r"|ate|did|does|finally|really|literally)\b)(?-i:[a-z][a-z'-]+)(?=\s+(?:just|is|was|has"
    r"|had|keeps|always|never|still|finally|literally|(?-i:[a-z]+ed)|ate|got|bit|broke|stole"
    r"|threw|ran|took|made|did|does|loves|hates|likes|turned|learned|knocked|sat)\b)"
)
"""A pet's name typed in lower case, known as a name by the verb right after it."""
_EN_BURDENS = (
    r"overtime|(?:night|double|extra|late)\s+shifts?|deadlines?|thesis|dissertation|bills"
    r"|debt|student\s+loans?|rent|layoffs?|job\s+hunting|unemployment|the\s+divorce"
)
"""Ongoing situations a viewer names when they say how they are doing."""
_KO_NAME_END = r"(?:이)?(?:에요|예요|이야|야|입니다|거든요?|라고|이고|인데|임|요)(?=[\s,.!~]|$)"
_KO_PARTNER = "남자친구|여자친구|남친|여친|애인|남편|아내|와이프"
_ZH_PARTNER = "男朋友|女朋友|男友|女友|对象|老公|老婆"
_EN_SHOPS = r"shop|store|cafe|café|restaurant|bakery|business|company|studio|bar|salon"

_EN = (
    rule("home", "en", r"^(?!.*\b(?:trip|vacation|holiday|rehab|hospital|jail|prison|quarantine"
         r"|recovery|hotel|ranked|diamond|gold|plat\w*|season|league|camp)\b)"
         r"(?:my\s+|the\s+)?first\s+(?:few\s+)?(?:weeks?|months?)"
         r"\s+(?:in|living\s+in)\s+(?P<obj>(?!(?:the|a|my|this|that|bed|class|office|school"
         r"|town|person|ranked|line)\b)[a-z][\w'.-]*(?:\s+[a-z][\w'.-]*)??)"
         r"(?=\s*$|\s+(?:have|has|had|were|was|went|are|is|done|over|and|so)\b)"),
    rule("pet", "en", rf"\bmy\s+(?:(?:little|old|new|baby|rescue|sweet|fat|senior|silly)\s+)?"
         rf"(?P<obj>{EN_PETS})\s*,?\s+(?P<name>{_EN_CAPITAL}|{_EN_LOWER_NAME})"),
    rule("person", "en", rf"\bmy\s+(?:little\s+|big\s+|older\s+|younger\s+|baby\s+)?"
         rf"(?P<obj>{EN_RELATIVES})\s*,?\s+{_EN_NAME}\s+(?:is|was|has|just|turned)\b"),
    rule("home", "en", rf"(?:{I_}|\bwe)\s+(?:just\s+|finally\s+|recently\s+|officially\s+)?"
         r"(?:moved|relocated)\s+(?:to|into)\s+(?P<obj>.+?)(?=\s+(?:for|with|because|since"
         r"|after|last|this|and|so)\b|$)"),
    rule("care", "en", rf"\bmy\s+(?P<obj>{EN_RELATIVES})(?:'s)?\s+(?:.{{0,30}}?\s)??"
         r"(?:in\s+(?:the\s+)?hospital|hospitali[sz]ed|(?:had|having|needs?|getting)\s+"
         r"(?:a\s+|an\s+)?(?:surgery|operation)|(?:got|is|was|been|fell)\s+(?:really\s+)?"
         r"(?:sick|ill)|has\s+(?:cancer|dementia|alzheimer'?s)|(?:got|was)\s+diagnosed"
         r"|had\s+a\s+(?:stroke|heart\s+attack)|(?:on|doing|started)\s+chemo)"),
    rule("fear", "en", rf"{I_AM}\s+{EN_ADV}(?:so\s+|really\s+|super\s+|deathly\s+)?(?:terrified"
         r"|scared|afraid|frightened)\s+of\s+(?P<obj>.+)"),
    rule("fear", "en", rf"{I_}\s+{EN_ADV}(?:have|got)\s+(?:a\s+|an\s+)?(?:(?:huge|big|real"
         r"|serious)\s+)?(?:fear|phobia)\s+of\s+(?P<obj>.+)"),
    rule("fear", "en", r"\bmy\s+(?:biggest\s+|worst\s+)?(?:fear|phobia)\s+is\s+(?P<obj>.+)"),
    rule("breakup", "en", r"\bmy\s+(?P<obj>girlfriend|boyfriend|partner|wife|husband|fiancee?"
         r"|gf|bf)\s+and\s+I\s+(?:just\s+|finally\s+)?(?:broke\s+up|split(?:\s+up)?|separated"
         r"|got\s+divorced)"),
    rule("person", "en", rf"\bmy\s+(?P<obj>{EN_RELATIVES})\s+and\s+I\s+(?:have\s+been|'ve\s+been"
         r"|are|just\s+got|got)\s+(?:together|dating|married|engaged)\b"),
    rule("situation", "en", r"^(?!(?:you|ur|he|she|they)\b)(?:[\w'-]+\s+){0,6}?(?:doing|working"
         r"|pulling|so\s+much|too\s+much|lots\s+of|behind\s+on|drowning\s+in|stressed\s+about"
         rf"|buried\s+in)\s+(?:\w+\s+){{0,3}}?(?P<obj>{_EN_BURDENS})\b"),
    rule("plan", "en", r"(?:\bmy\s+|^)(?P<obj>first\s+day)\s+(?:at|of)\s+(?:the\s+|my\s+)?"
         r"(?:new\s+)?(?:job|work|school|uni|college|internship|class(?:es)?)\b"),
    rule("breakup", "en", rf"(?:{I_}|\bwe)\s+(?:just\s+)?(?P<obj>broke\s+up|split\s+up"
         r"|got\s+divorced|got\s+dumped)\b"),
    rule("quit", "en", r"^(?:just\s+|finally\s+)?(?:quit|uninstalled|deleted)\s+(?P<obj>.+)"),
    rule("quit", "en", rf"{I_AM}\s+{EN_ADV}(?:trying\s+to|going\s+to|gonna)\s+(?:quit|stop)\s+"
         r"(?P<obj>smoking|vaping|drinking|caffeine|coffee|sugar|soda|gambling|.+?ing)\b"),
    rule("hooked", "en", rf"{I_AM}\s+{EN_ADV}all\s+in\s+on\s+(?P<obj>.+)"),
    rule("like", "en", rf"{I_HAVE}\s+(?:got\s+)?(?:like\s+|over\s+|almost\s+|about\s+|around\s+"
         r"|nearly\s+|literally\s+)?\d[\d,.]*\+?\s*k?\s+(?:hours|hrs)\s+(?:in|on|of|into)\s+"
         r"(?P<obj>.+)"),
    rule("like", "en", r"^(?P<obj>.+?)\s+is\s+my\s+(?:comfort|go-to|fav)\s+(?:game|show|anime"
         r"|food|song|movie|meal|snack|band)\b"),
    rule("started", "en", rf"{I_}\s+{EN_ADV}(?:just\s+|recently\s+)?(?:started|began)\s+"
         r"(?P<obj>(?:to\s+)?(?:learn|play|run|lift|swim|climb|knit|bake|draw|paint|cook)\b.*"
         r"|\w+ing\b.*)"),
    rule("started", "en", rf"{I_}\s+{EN_ADV}(?:just\s+|recently\s+)?(?:took|picked)\s+up\s+"
         r"(?P<obj>.+)"),
    rule("started", "en", rf"(?:{I_AM}\s+{EN_ADV}|^)(?:learning|teaching\s+myself)\s+"
         r"(?:how\s+)?(?:to\s+)?(?P<obj>.+)"),
    rule("job", "en", rf"{I_}\s+(?:just\s+)?(?:opened|run|own|started)\s+(?:my\s+own\s+|a\s+|an\s+)"
         rf"(?P<obj>(?:[\w'-]+\s+){{0,3}}?(?:{_EN_SHOPS}))\b"),
)  # fmt: skip

_KO = (
    rule("home", "ko", r"^(?!.*(?:여행|출장|휴가|놀러|병원|호텔|댁|캠프|훈련소|입원))"
         r"(?:저\s+|나\s+)?(?P<obj>(?!집|회사|학교|여기|거기|방송|알바|병원|본가|고향|직장|학원)"
         r"[^\s,]+?)(?:에|으로|로)?\s*(?:와서|온\s*지|내려와서|올라와서|내려온\s*지|올라온\s*지"
         r"|이사\s*와서|이사\s*온\s*지)\s*(?:벌써\s*|이제\s*|딱\s*)?(?:첫\s*주|일주일|한\s*달"
         r"|두\s*달|\d+\s*(?:주|달|개월))"),
    rule("pet", "ko", rf"(?P<obj>{KO_PETS})\s*(?:의\s*)?이름(?:은|이|는)?\s*(?P<name>[^\s,]+?)"
         + _KO_NAME_END, others_ok=True),
    rule("person", "ko", rf"(?:^|\s)(?P<obj>{KO_RELATIVES})\s*(?:의\s*)?이름(?:은|이|는)?\s*"
         r"(?P<name>[^\s,]+?)" + _KO_NAME_END, others_ok=True),
    rule("person", "ko", rf"(?P<obj>{_KO_PARTNER})(?:이랑|하고|와|과|랑)\s*(?:\S+\s+){{0,2}}?"
         r"\S*(?:연애|사귀)", others_ok=True),
    rule("home", "ko", r"(?:^|\s)(?P<obj>[^\s,]+?)(?:으로|로)\s+(?:\S+\s+){1,3}?이사\s*"
         r"(?:왔|했|온|완료|갔)"),
    rule("home", "ko", r"^(?:저\s+|나\s+)?(?P<obj>(?!혼자|같이|잘|따로|함께)"
         r"(?![^\s,]*(?:랑|하고|와|과)(?:\s|$))[^\s,]+(?:\s[^\s,]+)?)"
         r"\s+(?:근처\s+)?(?:살아|살고|삽니다|사는\s)"),
    rule("care", "ko", rf"(?P<obj>{KO_RELATIVES})(?:께서|가|이|는|도)?\s+(?:\S+\s+){{0,4}}?\S*"
         r"(?:수술|입원|병원\s*(?:에|다니|다녀|갔)|편찮|아프셔|아파서|쓰러지|쓰러졌|쓰러지셨|투병"
         r"|항암|치매|암\s*(?:진단|판정|이래|이에요|이래요))", others_ok=True),
    rule("fear", "ko", r"(?P<obj>[^\s,]+?)\s*공포증"),
    rule("fear", "ko", r"^(?P<obj>.+?)(?:이|가)?\s*(?:너무|진짜|정말|제일|좀|엄청)?\s*(?:무서워"
         r"|무섭|두려워|겁나)"),
    rule("breakup", "ko", rf"(?:(?P<obj>{_KO_PARTNER})(?:이랑|하고|와|과|랑)\s*)?(?:결국\s*)?"
         r"(?:헤어졌|헤어짐|이혼했)", others_ok=True),
    rule("quit", "ko", r"(?P<obj>금연|금주|단주)\s*(?:중|시작|한\s*지|하고|해요|했|성공|\d+일)"),
    rule("quit", "ko", r"(?P<obj>담배|술|커피|게임)\s*(?:을|를)?\s*(?:끊기\s*시작|끊는\s*중"
         r"|끊으려고|끊고)"),
    rule("started", "ko", r"^(?P<obj>.+?)\s*(?:을|를)?\s*(?:다시\s*|새로\s*|요즘\s*)?(?:시작했"
         r"|시작함|배우기\s*시작|배우고\s*있|배우는\s*중)"),
    rule("like", "ko", r"(?P<obj>[^\s,]+(?:\s[^\s,]+)?)\s*(?:만\s*)?\d[\d,]*\s*시간\s*(?:넘게\s*"
         r"|이상\s*)?(?:했|함|플레이|박았)"),
    rule("job", "ko", r"(?P<obj>\S+\s*(?:가게|카페|식당|매장|쇼핑몰|공방))(?:을|를)?\s*"
         r"(?:차렸|오픈했|열었|운영)"),
)  # fmt: skip

_JA = (
    rule("home", "ja", r"^(?!.*(?:旅行|出張|遊び|病院|ホテル|入院|合宿))"
         r"(?P<obj>(?!ここ|家|会社|学校|実家|職場|うち)[^\sはがもでにへの、]+?)"
         r"(?:に|へ)?(?:来て|越して|引っ越して)(?:から)?(?:もう|まだ|やっと)?(?:一週間|1週間|一ヶ月|1ヶ月"
         r"|ひと月|\d+(?:週間|ヶ月|か月|カ月))"),
    rule("pet", "ja", rf"(?P<obj>{JA_PETS})(?:は|の名前は)?[、,\s]*(?P<name>[^、,\s]+?)"
         r"(?:って|という|と言う)(?:言う|いう|言います|いいます|呼んで)", others_ok=True),
    rule("home", "ja", r"(?P<obj>[^\sはがもで、]+?)住み"),
    rule("hometown", "ja", r"(?:地元|実家)は(?P<obj>[^\sで、]+?)(?:です|だ|で|$)"),
    rule("job", "ja", r"(?:^|で)(?P<obj>[^\sはがもを、で]{0,8}(?:エンジニア|運転手|講師"
         r"|会社員|看護師|保育士|美容師|公務員))(?:を)?(?:してます|しています|やってます|やっています|です)"),
    rule("care", "ja", rf"(?P<obj>{JA_RELATIVES})(?:が|は|も)?.{{0,16}}?(?:入院|手術|倒れ|病気"
         r"|癌|がん|ガン|闘病|介護|認知症|脳梗塞|骨折)", others_ok=True),
    rule("fear", "ja", r"(?P<obj>[^\sはがもの、]+?)恐怖症"),
    rule("fear", "ja", rf"^(?P<obj>.+?)(?:が|は)(?:{JA_ADVERBS})*(?:怖い|こわい|怖くて|こわくて"
         r"|怖すぎ)"),
    rule("breakup", "ja", r"(?P<obj>(?:彼氏|彼女|恋人|元カレ|元カノ|旦那|夫|妻|嫁)と別れ"
         r"(?:た|ました|ちゃった)|離婚し(?:た|ました))", others_ok=True),
    rule("quit", "ja", r"(?P<obj>禁煙|禁酒|断酒)(?:中|して|を?始め|\d+日目)"),
    rule("quit", "ja", r"^(?P<obj>[^はがを、]+?)は(?:もう)?.{0,12}?卒業(?:$|した|です|だ"
         r"|しました|する)"),
    rule("started", "ja", r"^(?P<obj>.+?)(?:を)?(?:最近|新しく|また)?始め(?:た|ました|てみた)"),
    rule("like", "ja", r"(?P<obj>[^\sはがもを、]+?)(?:は|を)?\d[\d,]*\s*時間(?:以上)?(?:やって"
         r"|プレイ|遊ん)"),
    rule("job", "ja", r"(?P<obj>[^\sはがもを、]+?(?:店|カフェ|屋|サロン|会社))(?:を)?(?:開いた"
         r"|オープンした|始めた|経営して)"),
)  # fmt: skip

_ZH = (
    rule("home", "zh", r"^(?!.*(?:出差|旅游|旅行|玩|医院|直播间|实习|酒店|住院|度假))"
         r"(?:.*?我)?(?:搬)?来(?:到)?(?P<obj>(?!这|那|公司|学校|家|单位)"
         r"[^\s，,。了]{2,6}?)(?:已经|快|才|刚|都)?(?:一周|一个星期|一星期|一个月|两周|两个月"
         r"|\d+(?:周|个月))"),
    rule("pet", "zh", rf"我(?:自己)?(?:家|的)(?:的)?(?:那|这)?(?:只|条|个)?(?:小)?"
         rf"(?P<obj>{ZH_PETS})(?:的名字)?叫(?P<name>[^，,。\s]+)"),
    rule("home", "zh", r"^\s*(?:现在)?住在(?P<obj>.+)"),
    rule("job", "zh", r"^\s*我是(?:一名|一个)?(?P<obj>\S{0,4}(?:老师|医生|护士|工程师"
         r"|设计师|经理|程序员|司机))$"),
    rule("care", "zh", rf"我(?:的)?(?P<obj>{ZH_RELATIVES}).{{0,12}}?(?:住院|手术|生病|病了|癌"
         r"|中风|脑梗|骨折|病倒|身体不好|查出)"),
    rule("fear", "zh", r"最怕的(?:东西)?(?:就)?是(?P<obj>.+)"),
    rule("fear", "zh", rf"{ZH_PREFIX}(?:很|超|特别|最|非常)?(?:怕|害怕|恐惧)(?P<obj>.+)"),
    rule("fear", "zh", r"(?P<obj>恐高|社恐)"),
    rule("fear", "zh", r"(?P<obj>[^\s，,]+?)恐惧症"),
    rule("breakup", "zh", rf"(?P<obj>(?:和|跟)(?:我)?(?:{_ZH_PARTNER})分手|分手了|离婚了)"),
    rule("quit", "zh", rf"{ZH_PREFIX}(?:开始|正在|在|已经|决定)?戒(?P<obj>烟|酒|咖啡|奶茶|游戏"
         r"|手机)"),
    rule("started", "zh", rf"{ZH_PREFIX}(?:最近)?(?:开始|在)学(?P<obj>.+)"),
    rule("started", "zh", rf"{ZH_PREFIX}(?:最近)?开始(?:了)?(?P<obj>健身|跑步|游泳|练\S+|打\S+)"),
    rule("job", "zh", r"开了(?:一)?家(?P<obj>\S+?(?:店|馆|公司|工作室|餐厅))"),
    rule("like", "zh", r"(?P<obj>[^\s，,]+?)(?:玩了|打了|肝了)(?:快|将近|超过)?\d[\d,]*(?:多)?"
         r"(?:个)?(?:小时|h)"),
)  # fmt: skip

LIFE_RULES: tuple[FactRule, ...] = (*_EN, *_KO, *_JA, *_ZH)
