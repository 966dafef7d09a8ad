export { default } from "../../http/index";
