"""Word lists the fact rules are built from, in Korean, Japanese, Chinese and English.

Lists are alternations for patterns (longest first, so "여동생" is tried before "동생");
the maps give a language-independent key for a slot ("여동생", "妹", "妹妹" and "sister"
are all ``person:sister``), never a text shown to anyone.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType


def words(text: str) -> str:
    """An alternation of the whitespace-separated words of ``text``, longest first."""
    return "|".join(sorted(set(text.split()), key=len, reverse=True))


def _keyed(table: Mapping[str, str]) -> Mapping[str, str]:
    """``{"sister": "여동생 妹 妹妹"}`` -> ``{"여동생": "sister", "妹": "sister", ...}``."""
    return MappingProxyType({word: key for key, said in table.items() for word in said.split()})


EN_ADVERBS = words(
    "really just absolutely totally also actually truly genuinely do seriously honestly "
    "literally still kinda lowkey super so especially definitely always"
)
KO_SELF = words("나 나는 난 저 저는 전 내가 제가 나도 저도 나두 저두")
KO_ADVERBS = words(
    "엄청 정말 진짜 너무 완전 제일 가장 젤 되게 많이 진심 정말로 매우 아주 꽤 특히 요즘 사실 "
    "원래 좀 살짝 은근 은근히 지금 현재 요새 진짜로 완전히 대박 겁나 존나 무척 참 여전히 "
    "별로 그다지 이제 이젠 벌써 아직 아직도"
)
KO_STRONG = words("엄청 정말 진짜 너무 완전 제일 가장 젤 되게 진심 정말로 매우 아주 대박 겁나 무척")
JA_SELF = words("私 わたし あたし 僕 ぼく 俺 おれ うち 自分 わい")
JA_ADVERBS = words(
    "本当に ほんとに ほんと めっちゃ めちゃくちゃ めちゃ すごく すっごく とても 超 マジで まじで "
    "実は 特に 昔から 最近 やっぱり やっぱ 一番 かなり 結構 けっこう 普通に ずっと "
    "今 いま 今は 現在"
)
JA_STRONG = words(
    "本当に ほんとに めっちゃ めちゃくちゃ すごく すっごく とても 超 マジで まじで 一番 かなり"
)
ZH_ADVERBS = words(
    "也 还 都 就 真的 很 超 超级 最 特别 非常 比较 挺 更 一直 蛮 好 真 太 确实 其实 从小就 一向 "
    "向来 现在 目前 特 老 贼 最近 这几天 这阵子"
)
ZH_CONJUNCTIONS = words("因为 所以 但是 不过 而且 其实 反正 然后 说实话 老实说 可是 但")
ZH_STRONG = r"最(?=喜欢|爱|讨厌|不喜欢)|超级|超爱|特别|非常|真的|贼|热爱"
EN_STRONG = r"really|absolutely|totally|truly|genuinely|seriously|so much|love|adore|favou?rite"

EN_PETS = words(
    "cat cats kitten kittens dog dogs puppy puppies hamster hamsters rabbit rabbits bunny "
    "bunnies parrot parrots bird birds fish goldfish turtle turtles tortoise snake snakes "
    "lizard lizards ferret ferrets hedgehog hedgehogs gecko geckos budgie budgies pet pets "
    "beagle corgi pug poodle husky labrador retriever shiba chihuahua dachshund doxie "
    "terrier bulldog frenchie pomeranian maltese collie shepherd greyhound pitbull spaniel "
    "tabby tomcat axolotl iguana guinea-pig chinchilla cockatiel guppy guppies betta "
    "tarantula cockatoo canary"
)
KO_PETS = words(
    "고양이 강아지 개 햄스터 토끼 앵무새 새 물고기 금붕어 거북이 고슴도치 뱀 도마뱀 반려견 반려묘 "
    "반려동물 냥이 댕댕이 페럿 포메 포메라니안 말티즈 푸들 시츄 진돗개 리트리버 웰시코기 코기 "
    "비숑 치와와 닥스훈트 시바견 허스키 비글 보더콜리 웰시 코숏 먼치킨 러시안블루 페르시안 "
    "랙돌 치즈냥이 턱시도 앵무 기니피그 게코 레오파드게코 크레스티드게코 우파루파 구피 "
    "열대어 친칠라 카나리아"
)
JA_PETS = words(
    "猫 ねこ ネコ 子猫 犬 いぬ イヌ 子犬 ハムスター うさぎ ウサギ 兎 インコ オウム 鳥 金魚 魚 "
    "亀 カメ ハリネズミ フェレット 蛇 ヘビ トカゲ ペット 愛犬 愛猫 柴犬 豆柴 秋田犬 プードル "
    "トイプードル チワワ ダックス ポメラニアン コーギー ラブラドール フレブル パグ "
    "マルチーズ シーズー ビーグル ハスキー 三毛猫 黒猫 白猫 茶トラ キジトラ サバトラ マンチカン "
    "ロシアンブルー ラグドール 文鳥 セキセイインコ モルモット チンチラ ヤモリ レオパ "
    "ウーパールーパー グッピー 熱帯魚 カナリア"
)
ZH_PETS = words(
    "猫 猫咪 小猫 狗 小狗 狗狗 仓鼠 兔子 鹦鹉 鸟 金鱼 "
    "鱼 乌龟 刺猬 蛇 蜥蜴 宠物 柯基 柴犬 哈士奇 金毛 泰迪 "
    "比熊 博美 萨摩耶 边牧 拉布拉多 阿拉斯加 秋田 法斗 "
    "巴哥 吉娃娃 腊肠 英短 美短 布偶 橘猫 黑猫 白猫 "
    "狸花猫 暹罗猫 加菲猫 蓝猫 三花猫 奶牛猫 龙猫 豚鼠 守宫 豹纹守宫 六角恐龙 孔雀鱼 "
    "热带鱼 金丝雀"
)

EN_JOBS = words(
    "teacher student nurse doctor engineer developer programmer designer artist writer "
    "author chef cook cashier barista waiter waitress driver lawyer accountant pharmacist "
    "dentist firefighter officer soldier farmer streamer vtuber youtuber creator "
    "illustrator animator musician singer dancer actor actress photographer editor "
    "journalist reporter translator interpreter researcher scientist professor lecturer "
    "tutor manager consultant analyst clerk salesperson mechanic electrician plumber "
    "carpenter pilot vet veterinarian therapist counselor counsellor secretary "
    "receptionist freelancer worker intern housewife homemaker retiree "
    "librarian paramedic surgeon cop"
)
KO_JOBS = words(
    "회사원 직장인 공무원 학생 대학생 고등학생 중학생 대학원생 취준생 간호사 의사 교사 선생님 약사 "
    "기자 작가 화가 주부 백수 프리랜서 디자이너 엔지니어 프로그래머 개발자 유튜버 스트리머 "
    "크리에이터 일러스트레이터 마케터 군인 경찰 경찰관 소방관 요리사 변호사 회계사 미용사 연구원 "
    "알바생 은행원 승무원 성우 가수 배우 교수 고3 고2 고1 재수생 수험생"
)
JA_JOBS = words(
    "会社員 社会人 公務員 学生 大学生 高校生 中学生 大学院生 就活生 看護師 医者 医師 教師 先生 "
    "薬剤師 記者 作家 漫画家 画家 主婦 主夫 無職 ニート フリーター フリーランス 自営業 デザイナー "
    "エンジニア プログラマー イラストレーター 声優 歌手 配信者 VTuber YouTuber バイト アルバイト "
    "店員 美容師 保育士 弁護士 研究者 警察官 消防士 料理人 教授 看護学生 受験生 浪人生"
)
ZH_JOBS = words(
    "学生 大学生 高中生 初中生 研究生 程序员 老师 教师 医生 护士 工程师 设计师 会计 律师 厨师 司机 "
    "公务员 上班族 自由职业者 主播 画师 作家 警察 军人 销售 店员 服务员 打工人 社畜 博士生 教授 "
    "高三学生 考生"
)

RELATIVES: Mapping[str, str] = _keyed(
    {
        "mother": "mom mother mum mommy ma 엄마 어머니 "
        "어머님 母 お母さん 母親 ママ お袋 おふくろ 母ちゃん "
        "妈妈 妈 母亲 老妈",
        "father": "dad father daddy pops 아빠 아버지 아버님 "
        "父 お父さん 父親 パパ 親父 おやじ オヤジ "
        "父ちゃん 爸爸 爸 父亲 老爸",
        "sister": "sister 여동생 언니 누나 姉 お姉ちゃん 姉ちゃん 妹 姐姐 妹妹",
        "brother": "brother 남동생 오빠 형 兄 お兄ちゃん 兄ちゃん 弟 哥哥 弟弟",
        "sibling": "sibling siblings bro sis 동생 兄弟 兄妹",
        "parents": "parents folks 부모님 両親 親 父母 爸妈",
        "partner": (
            "girlfriend boyfriend gf bf partner fiance fiancee 여자친구 여친 남자친구 남친 애인 "
            "彼女 彼氏 恋人 女朋友 女友 男朋友 男友 对象"
        ),
        "spouse": (
            "wife husband hubby wifey spouse 아내 와이프 남편 妻 嫁 夫 旦那 老婆 妻子 老公 丈夫"
        ),
        "child": "kid kids child children baby 아이 애기 아기 子供 子ども 赤ちゃん 孩子 宝宝",
        "son": "son 아들 息子 儿子",
        "daughter": "daughter 딸 娘 女儿",
        "friend": "friend bestie roommate 친구 베프 절친 룸메 友達 友だち 親友 朋友 闺蜜 室友 "
        "好朋友",
        "grandparent": (
            "grandma grandpa grandmother grandfather 할머니 할아버지 祖母 祖父 おばあちゃん "
            "おじいちゃん 奶奶 爷爷 外婆 外公 姥姥 姥爷"
        ),
    }
)
EN_RELATIVES = words(" ".join(w for w in RELATIVES if w.isascii()))
KO_RELATIVES = words(" ".join(w for w in RELATIVES if "\uac00" <= w[0] <= "\ud7a3"))
JA_RELATIVES = words(
    "母 お母さん 母親 ママ お袋 おふくろ 母ちゃん 父 お父さん 父親 パパ "
    "親父 おやじ オヤジ 父ちゃん 両親 姉 お姉ちゃん 姉ちゃん 妹 兄 お兄ちゃん "
    "兄ちゃん 弟 兄弟 彼女 彼氏 恋人 妻 嫁 夫 旦那 子供 子ども 赤ちゃん 息子 娘 友達 友だち 親友 "
    "祖母 祖父 おばあちゃん おじいちゃん"
)
ZH_RELATIVES = words(
    "爸妈 父母 妈妈 妈 母亲 老妈 爸爸 爸 父亲 老爸 "
    "姐姐 妹妹 哥哥 弟弟 女朋友 女友 男朋友 男友 对象 老婆 "
    "妻子 老公 丈夫 孩子 宝宝 儿子 女儿 朋友 闺蜜 室友 好朋友 奶奶 爷爷 外婆 外公 姥姥 姥爷"
)

PLANS: Mapping[str, str] = _keyed(
    {
        "exam": (
            "exam exams test finals midterm midterms toeic toefl ielts jlpt 시험 기말 "
            "중간고사 기말고사 수능 자격증 토익 토플 오픽 면허 試験 テスト 受験 期末 検定 考试 "
            "期末考试 考研 高考 测验 四级 六级 雅思 托福 驾照"
        ),
        "interview": "interview 면접 面接 面试",
        "trip": ("trip vacation holiday flight 여행 출장 휴가 旅行 出張 旅游 出差 度假"),
        "move": "move moving 이사 引っ越し 引越し 引っ越す 引っ越 搬家 搬到 搬去",
        "birthday": "birthday bday 생일 誕生日 生日",
        "wedding": "wedding 결혼식 結婚式 婚礼",
        "concert": "concert gig 콘서트 공연 ライブ コンサート 演唱会",
        "surgery": "surgery operation 수술 手術 手术",
        "appointment": "appointment checkup 병원 진료 検診 通院 看病 体检",
        "presentation": "presentation audition 발표 오디션 発表 オーディション 答辩 汇报",
        "graduation": "graduation 졸업식 卒業式 毕业典礼",
        "date": "date 데이트 デート 约会",
    }
)
EN_PLANS = words(" ".join(w for w in PLANS if w.isascii()))
KO_PLANS = words(" ".join(w for w in PLANS if "\uac00" <= w[0] <= "\ud7a3"))
JA_PLANS = words(
    "検定 JLPT TOEIC 試験 テスト 受験 期末 面接 "
    "旅行 出張 引っ越し 引越し 誕生日 結婚式 ライブ コンサート 手術 "
    "検診 通院 発表 オーディション 卒業式 デート"
)
ZH_PLANS = words(
    "四级 六级 雅思 托福 驾照 考试 期末考试 考研 高考 测验 面试 "
    "旅行 旅游 出差 度假 搬家 搬到 生日 婚礼 演唱会 手术 看病 "
    "体检 答辩 汇报 毕业典礼 约会"
)

DATES = (
    # English: relative days and weeks, weekdays, month and day
    r"\b(?:today|tonight|tomorrow|tmrw|tmr|tmw|2morrow|this\s+(?:weekend|week|month|year|morning|evening"
    r"|(?:mon|tues|wednes|thurs|fri|satur|sun)day)|next\s+(?:week(?:end)?|month|year"
    r"|(?:mon|tues|wednes|thurs|fri|satur|sun)day)|(?:on\s+)?(?:mon|tues|wednes|thurs|fri"
    r"|satur|sun)day|in\s+(?:a|two|three|\d+)\s+(?:days?|weeks?|months?)"
    r"|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2}(?:st|nd|rd|th)?"
    r"|(?:in|this|next|early|late|end\s+of)\s+(?:january|february|march|april|may|june|july"
    r"|august|september|october|november|december))\b"
    # Korean
    r"|오늘|내일|모레|글피|이번\s*주말|이번\s*주|다음\s*주말|다음\s*주\s*[월화수목금토일]요일"
    r"|다음\s*주|다음\s*달|이번\s*달|내년|올해|다음\s*[월화수목금토일]요일|[월화수목금토일]요일"
    r"|\d{1,2}\s*월\s*\d{1,2}\s*일|주말에"
    # Japanese
    r"|今日|明日|あした|明後日|あさって|今週末|今週|来週の?[月火水木金土日]曜日?|来週末|来週"
    r"|来月|今月|来年|週末|[月火水木金土日]曜日?(?=に|は|の)|\d{1,2}\s*月\s*\d{1,2}\s*日"
    # Chinese
    r"|今天|明天|后天|下周[一二三四五六日天]?|下个?星期[一二三四五六日天]?|这周末?|周末"
    r"|下个?月|明年|今年|\d{1,2}\s*月\s*\d{1,2}\s*[日号]|周[一二三四五六日]|星期[一二三四五六日天]"
)
"""Dates as viewers say them: kept as said (the fact's recorded time says when)."""

GAME_CUES = (
    r"\b(?:game|games|gaming|play|playing|played|grind|grinding|ranked)\b|게임|겜|플레이"
    r"|롤|배그|오버워치|발로란트|메이플|마크|원신|ゲーム|プレイ|やって|やってる|游戏|手游|玩"
    r"|原神|王者荣耀|英雄联盟|吃鸡"
)
"""Words that make "what I'm into now" the game played now."""
