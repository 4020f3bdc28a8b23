"""Vocabulary and templates for synthetic chat in Korean, Japanese, Chinese and English.

Each :class:`LanguagePack` fills templates from slot vocabularies. Slots shared by every
pack: ``food``, ``game``, ``hobby``, ``place``, ``pet``, ``pet_name``, ``person``,
``time``, ``feeling``, ``job``. Fact templates follow the extractor's convention (an
English predicate followed by the viewer's own words) and carry their category.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from omoide.domain import FactCategory

SLOT_NAMES = (
    "food", "game", "hobby", "place", "pet", "pet_name", "person", "time", "feeling", "job",
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class LanguagePack:
    """Everything the generator needs to write chat in one language."""

    code: str
    slots: Mapping[str, tuple[str, ...]]
    user_templates: tuple[str, ...]
    bot_templates: tuple[str, ...]
    low_signal: tuple[str, ...]
    query_templates: tuple[str, ...]


FACT_TEMPLATES: tuple[tuple[str, FactCategory], ...] = (
    ("likes {food}", FactCategory.PREFERENCE),
    ("dislikes {food}", FactCategory.PREFERENCE),
    ("plays {game}", FactCategory.HABIT),
    ("enjoys {hobby}", FactCategory.PREFERENCE),
    ("lives in {place}", FactCategory.PERSONAL),
    ("has a pet {pet} named {pet_name}", FactCategory.PERSONAL),
    ("wants to become {job}", FactCategory.GOAL),
    ("often spends time with {person}", FactCategory.HABIT),
)


def _words(text: str) -> tuple[str, ...]:
    return tuple(word.strip() for word in text.split("|") if word.strip())


KOREAN = LanguagePack(
    code="ko",
    slots=MappingProxyType({
        "food": _words("떡볶이|김치찌개|삼겹살|라면|치킨|비빔밥|냉면|초밥|피자|마라탕|순두부찌개|"
                       "김밥|짜장면|떡국|붕어빵|호떡|불고기|닭갈비|감자탕|빙수"),
        "game": _words("롤|배그|마인크래프트|오버워치|발로란트|메이플스토리|스타크래프트|원신|"
                       "동물의 숲|젤다|포켓몬|테트리스|로스트아크|서든어택|피파"),
        "hobby": _words("그림 그리기|기타 치기|등산|독서|요리|사진 찍기|뜨개질|수영|캠핑|"
                        "자전거 타기|피아노 연습|영화 보기|노래방 가기|홈트|낚시"),
        "place": _words("서울|부산|대구|인천|광주|대전|제주도|수원|"
                        "강릉|전주|춘천|울산|포항|여수|경주"),
        "pet": _words("강아지|고양이|햄스터|토끼|앵무새|거북이|금붕어|고슴도치"),
        "pet_name": _words("초코|콩이|보리|두부|망고|뭉치|구름|레오"),
        "person": _words("엄마|아빠|언니|형|동생|친구|할머니|남자친구"),
        "time": _words("어제|오늘 아침|지난 주말|그저께|아까|지난달|이번 주|작년 겨울|방금|어젯밤"),
        "feeling": _words("행복했어|너무 피곤했어|좀 외로웠어|진짜 설렜어|긴장됐어|뿌듯했어|"
                          "속상했어|신났어|우울했어|편안했어"),
        "job": _words("성우|간호사|개발자|선생님|디자이너|요리사|유튜버|경찰|수의사|작가"),
    }),
    user_templates=(
        "나 {food} 진짜 좋아해", "난 {food} 싫어", "{time} {person}랑 {food} 먹었어",
        "요즘 {game} 자주 해", "{time} {game} 하다가 {feeling}", "나 {place} 살아",
        "우리 집 {pet} 이름은 {pet_name}야", "다음 달에 {place} 여행 가",
        "내 생일에 {food} 먹을 거야", "나중에 {job} 되고 싶어", "주말마다 {hobby} 해",
        "{time} {hobby} 했는데 {feeling}", "{person}랑 같이 {hobby} 했어",
        "요즘 좀 힘들어. {time} {feeling}",
    ),
    bot_templates=(
        "와, 좋겠다!", "그랬구나, 더 얘기해 줘!", "{food} 맛있지! 나도 먹어 보고 싶다",
        "힘들었겠다. 괜찮아?", "멋지다! 응원할게", "오, 그거 재밌겠다!", "기억해 둘게!",
    ),
    low_signal=("ㅋㅋㅋㅋ", "ㅎㅎ", "응", "ㅇㅇ", "ㄹㅇ", "헐"),
    query_templates=(
        "내가 좋아하는 음식 뭐였지?", "{food} 얘기 기억나?", "내 {pet} 이름 기억해?",
        "{time} 내가 뭐 했다고 했지?", "나 어디 산다고 했지?", "요즘 {game} 하는데 같이 할래?",
        "{hobby} 추천해 줄래?", "내 꿈이 뭐였는지 알아?",
    ),
)  # fmt: skip

JAPANESE = LanguagePack(
    code="ja",
    slots=MappingProxyType({
        "food": _words("ラーメン|お寿司|カレー|たこ焼き|唐揚げ|焼き肉|うどん|そば|"
                       "お好み焼き|天ぷら|オムライス|ピーマン|納豆|抹茶アイス|牛丼|"
                       "餃子|ハンバーグ|パンケーキ|味噌汁|"
                       "おにぎり"),
        "game": _words("スプラトゥーン|モンハン|ポケモン|マリオカート|原神|FF14|ドラクエ|APEX|"
                       "どうぶつの森|ゼルダ|ストリートファイター|桃鉄|ウマ娘|太鼓の達人|マイクラ"),
        "hobby": _words("絵を描くこと|ギター|登山|読書|料理|写真|編み物|水泳|キャンプ|サイクリング|"
                        "ピアノ|映画鑑賞|カラオケ|筋トレ|釣り"),
        "place": _words("東京|大阪|京都|札幌|福岡|名古屋|横浜|神戸|"
                        "仙台|広島|沖縄|金沢|奈良|長野|熊本"),
        "pet": _words("猫|犬|ハムスター|うさぎ|インコ|亀|金魚|ハリネズミ"),
        "pet_name": _words("ミケ|ポチ|モモ|ソラ|コタロウ|ハナ|レオ|きなこ"),
        "person": _words("母|父|姉|兄|弟|友達|おばあちゃん|彼氏"),
        "time": _words("昨日|今朝|先週末|おととい|さっき|先月|今週|去年の冬|今日|昨夜"),
        "feeling": _words("すごく楽しかった|疲れちゃった|ちょっと寂しかった|ドキドキした|緊張した|"
                          "嬉しかった|悲しかった|ワクワクした|落ち込んだ|ほっとした"),
        "job": _words("声優|看護師|エンジニア|先生|デザイナー|料理人|配信者|警察官|獣医|作家"),
    }),
    user_templates=(
        "{food}が大好きなんだ", "{food}はちょっと苦手", "{time}、{person}と{food}を食べたよ",
        "最近{game}ばっかりやってる", "{time}{game}やってたら{feeling}", "{place}に住んでるよ",
        "うちの{pet}の名前は{pet_name}だよ", "来月{place}に旅行するんだ",
        "誕生日に{food}を食べる予定", "将来{job}になりたい", "毎週末{hobby}をしてる",
        "{time}{hobby}をして{feeling}", "{person}と一緒に{hobby}をしたよ",
        "最近ちょっとしんどい。{time}は{feeling}",
    ),
    bot_templates=(
        "いいね！", "そうなんだ、もっと聞かせて！", "{food}おいしいよね！",
        "大変だったね。大丈夫？",
        "すごい！応援してるよ", "楽しそう！", "覚えておくね！",
    ),
    low_signal=("www", "うん", "草", "なるほど", "はい", "ｗｗｗ"),
    query_templates=(
        "私の好きな食べ物覚えてる？", "{food}の話、覚えてる？", "うちの{pet}の名前わかる？",
        "{time}何してたか覚えてる？", "私どこに住んでるって言ったっけ？",
        "最近{game}やってるんだけど一緒にどう？", "{hobby}のおすすめある？", "私の夢、覚えてる？",
    ),
)  # fmt: skip

CHINESE = LanguagePack(
    code="zh",
    slots=MappingProxyType({
        "food": _words("火锅|饺子|烤鸭|小笼包|麻辣烫|炒饭|牛肉面|煎饼果子|奶茶|臭豆腐|粽子|月饼|"
                       "包子|麻婆豆腐|宫保鸡丁|烧烤|螺蛳粉|糖葫芦|酸菜鱼|香菜"),
        "game": _words("王者荣耀|原神|和平精英|英雄联盟|我的世界|崩坏星穹铁道|阴阳师|蛋仔派对|"
                       "明日方舟|永劫无间|第五人格|炉石传说|开心消消乐|黑神话悟空|光遇"),
        "hobby": _words("画画|弹吉他|爬山|看书|做饭|拍照|织毛衣|游泳|露营|骑自行车|弹钢琴|看电影|"
                        "唱K|健身|钓鱼"),
        "place": _words("北京|上海|广州|深圳|成都|杭州|重庆|武汉|"
                        "西安|南京|长沙|厦门|青岛|昆明|苏州"),
        "pet": _words("猫|狗|仓鼠|兔子|鹦鹉|乌龟|金鱼|刺猬"),
        "pet_name": _words("咪咪|旺财|豆豆|球球|团子|花花|可乐|布丁"),
        "person": _words("妈妈|爸爸|姐姐|哥哥|弟弟|朋友|奶奶|男朋友"),
        "time": _words("昨天|今天早上|上周末|前天|刚才|上个月|这周|去年冬天|今天|昨晚"),
        "feeling": _words("特别开心|好累|有点孤单|很激动|很紧张|很自豪|"
                          "很难过|超兴奋|心情不好|很放松"),
        "job": _words("配音演员|护士|程序员|老师|设计师|厨师|主播|警察|兽医|作家"),
    }),
    user_templates=(
        "我超喜欢吃{food}", "我不太喜欢{food}", "{time}和{person}一起吃了{food}",
        "最近一直在玩{game}", "{time}玩了{game}，{feeling}", "我住在{place}",
        "我家{pet}叫{pet_name}", "下个月要去{place}旅游", "生日那天想吃{food}",
        "以后想当{job}", "每个周末都去{hobby}", "{time}去{hobby}了，{feeling}",
        "和{person}一起{hobby}了", "最近压力好大，{time}{feeling}",
    ),
    bot_templates=(
        "真好！", "这样啊，多跟我说说！", "{food}好好吃！", "辛苦了，还好吗？", "好厉害！我支持你",
        "听起来很好玩！", "我记住啦！",
    ),
    low_signal=("哈哈哈", "嗯", "好的", "666", "哦", "hhh"),
    query_templates=(
        "我喜欢吃什么还记得吗？", "还记得我们聊过{food}吗？", "我家{pet}叫什么？",
        "我{time}做了什么？", "我住在哪里来着？", "最近在玩{game}，一起吗？",
        "有什么{hobby}的建议吗？", "你知道我的梦想吗？",
    ),
)  # fmt: skip

ENGLISH = LanguagePack(
    code="en",
    slots=MappingProxyType({
        "food": _words("ramen|sushi|pizza|tacos|pancakes|fried chicken|curry|dumplings|burgers|"
                       "pho|lasagna|bagels|mac and cheese|cilantro|olives|mushrooms|brownies|"
                       "nachos|bubble tea|grilled cheese"),
        "game": _words("Minecraft|Valorant|League of Legends|Elden Ring|Stardew Valley|Overwatch|"
                       "Fortnite|Animal Crossing|Zelda|Apex Legends|Hollow Knight|Tetris|"
                       "Genshin Impact|Rocket League|Pokemon"),
        "hobby": _words("drawing|playing guitar|hiking|reading|cooking|taking photos|knitting|"
                        "swimming|camping|cycling|playing piano|watching movies|singing karaoke|"
                        "lifting weights|fishing"),
        "place": _words("Seattle|Toronto|London|Chicago|Austin|Sydney|Boston|Denver|Dublin|"
                        "Vancouver|Melbourne|Portland|Atlanta|Manchester|Auckland"),
        "pet": _words("cat|dog|hamster|rabbit|parrot|turtle|goldfish|hedgehog"),
        "pet_name": _words("Mochi|Biscuit|Luna|Pepper|Oliver|Nugget|Daisy|Milo"),
        "person": _words("my mom|my dad|my sister|my brother|my cousin|my best friend|my grandma|"
                         "my boyfriend"),
        "time": _words("yesterday|this morning|last weekend|two days ago|earlier today|"
                       "last month|this week|last winter|today|last night"),
        "feeling": _words("it was so much fun|I got really tired|I felt a bit lonely|"
                          "I was so excited|I was nervous|I felt proud|I was sad|it was amazing|"
                          "I felt down|it was relaxing"),
        "job": _words("a voice actor|a nurse|a programmer|a teacher|a designer|a chef|a streamer|"
                      "a police officer|a vet|a writer"),
    }),
    user_templates=(
        "I really love {food}", "I'm not a fan of {food}", "{time} I had {food} with {person}",
        "I've been playing {game} a lot lately", "{time} I played {game} and {feeling}",
        "I live in {place}", "My {pet}'s name is {pet_name}", "I'm going to {place} next month",
        "I want {food} for my birthday", "I want to become {job} someday",
        "I spend every weekend {hobby}", "{time} I spent hours {hobby} and {feeling}",
        "I spent the afternoon {hobby} with {person}",
        "Things have been rough lately. {time} {feeling}",
    ),
    bot_templates=(
        "That's awesome!", "Oh really? Tell me more!", "{food} sounds delicious!",
        "That sounds hard. Are you okay?", "Amazing! I'm rooting for you",
        "That sounds like fun!", "I'll remember that!",
    ),
    low_signal=("lol", "ok", "haha", "yeah", "lmao", "k"),
    query_templates=(
        "What food do I like?", "Do you remember when we talked about {food}?",
        "What's my {pet}'s name?", "What did I do {time}?", "Where do I live again?",
        "I'm playing {game} lately, want to join?", "Any tips for {hobby}?",
        "Do you remember my dream job?",
    ),
)  # fmt: skip

LANGUAGE_PACKS: Mapping[str, LanguagePack] = MappingProxyType(
    {pack.code: pack for pack in (KOREAN, JAPANESE, CHINESE, ENGLISH)}
)
LANGUAGES: tuple[str, ...] = tuple(LANGUAGE_PACKS)
