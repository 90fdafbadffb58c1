// Sample options for the five style keys (docs/ideal-house-api.md#style-config). The pages give the keys and
// their groups but no option values, so these are the service's own: real-estate vocabulary a
// user would expect to pick from, each with an English and a Chinese display name.

/** [English, Chinese] display names of one option. */
export type OptionNames = readonly [string, string];

export const STYLE_OPTIONS: Readonly<
	Record<string, Readonly<Record<string, readonly OptionNames[]>>>
> = {
	home_decor_ideas: {
		spaceType: [
			['Living Room', '客厅'],
			['Bedroom', '卧室'],
			['Dining Room', '餐厅'],
			['Kitchen', '厨房'],
			['Bathroom', '浴室'],
			['Home Office', '书房'],
		],
		decorStyle: [
			['Scandinavian', '北欧风'],
			['Japandi', '日式侘寂'],
			['Bohemian', '波西米亚'],
			['Coastal', '海岸风'],
			['Modern Farmhouse', '现代农舍'],
			['Mid-Century Modern', '中世纪现代'],
			['Christmas', '圣诞节'],
		],
	},
	change_furniture: {
		roomType: [
			['Living Room', '客厅'],
			['Bedroom', '卧室'],
			['Dining Room', '餐厅'],
			['Home Office', '书房'],
			['Kids Room', '儿童房'],
		],
		style: [
			['Scandinavian', '北欧风'],
			['Japandi', '日式侘寂'],
			['Industrial', '工业风'],
			['Mid-Century Modern', '中世纪现代'],
			['Minimalist', '极简主义'],
			['Traditional', '传统风'],
		],
		elements: [
			['Sofa', '沙发'],
			['Rug', '地毯'],
			['Floor Lamp', '落地灯'],
			['Coffee Table', '茶几'],
			['Armchair', '扶手椅'],
			['Bookshelf', '书架'],
			['Dining Table', '餐桌'],
			['Bed', '床'],
		],
	},
	interoir_remodel: {
		roomType: [
			['Living Room', '客厅'],
			['Bedroom', '卧室'],
			['Kitchen', '厨房'],
			['Bathroom', '浴室'],
			['Dining Room', '餐厅'],
		],
		style: [
			['Modern', '现代风'],
			['Scandinavian', '北欧风'],
			['Japandi', '日式侘寂'],
			['Industrial', '工业风'],
			['Art Deco', '装饰艺术'],
			['Mediterranean', '地中海风'],
		],
		elements: [
			['Wall Paint', '墙面涂料'],
			['Hardwood Flooring', '实木地板'],
			['Ceiling Lights', '吊顶灯具'],
			['Kitchen Cabinets', '橱柜'],
			['Stone Countertops', '石材台面'],
			['Tile Backsplash', '瓷砖背板'],
			['Built-in Shelving', '嵌入式置物架'],
		],
	},
	ai_plan_visualizer: {
		planType: [
			['2D Floor Plan', '二维平面图'],
			['Furnished Floor Plan', '家具布置平面图'],
			['Site Plan', '总平面图'],
			['Hand Sketch', '手绘草图'],
		],
		style: [
			['Modern', '现代风'],
			['Scandinavian', '北欧风'],
			['Minimalist', '极简主义'],
			['Luxury', '轻奢风'],
			['Warm Wood', '暖木风'],
		],
		view: [
			['Top View', '俯视图'],
			['Isometric View', '等轴测视图'],
			["Bird's-eye View", '鸟瞰图'],
			['Eye-level View', '人视图'],
		],
	},
	landscaping: {
		gardenStyle: [
			['Modern Garden', '现代花园'],
			['English Cottage Garden', '英式乡村花园'],
			['Japanese Zen Garden', '日式禅意花园'],
			['Mediterranean Garden', '地中海花园'],
			['Tropical Garden', '热带花园'],
			['Desert Xeriscape', '沙漠旱景园'],
		],
		elements: [
			['Lawn', '草坪'],
			['Flower Beds', '花坛'],
			['Stone Pathway', '石板小径'],
			['Patio Pavers', '露台铺砖'],
			['Fire Pit', '火坑'],
			['Water Feature', '水景'],
			['Pergola', '藤架'],
			['Outdoor Lighting', '户外照明'],
		],
	},
};
