export { default } from "../../api/index";
